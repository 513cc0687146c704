import numpy as np


def feed_forward(x, w1, b1, w2, b2):
    h = x @ w1 + b1
    # GPT-2's activation: the tanh approximation of GELU.
    h = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h**3)))
    return h @ w2 + b2
