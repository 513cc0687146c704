import numpy as np


def split_heads(x, n_heads):
    batch, length, width = x.shape
    y = np.reshape(x, (batch, length, n_heads, width // n_heads))
    return np.transpose(y, (0, 2, 1, 3)).copy()
