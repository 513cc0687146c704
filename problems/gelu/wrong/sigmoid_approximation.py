import numpy as np


def gelu(x):
    # x * sigmoid(1.702 x), the cheaper approximation from the GELU paper.
    return x / (1.0 + np.exp(-1.702 * x))
