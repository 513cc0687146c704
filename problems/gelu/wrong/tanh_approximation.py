import numpy as np


def gelu(x):
    # The formula from the GPT-2 and BERT code: close to GELU, and no erf needed.
    inner = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)
    return 0.5 * x * (1.0 + np.tanh(inner))
