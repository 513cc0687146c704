import numpy as np


def split_heads(x, n_heads):
    B, L, D = x.shape
    out = x.reshape(B, L, n_heads, D // n_heads)
    return np.swapaxes(out, 1, 2).copy()
