import numpy as np


def split_heads(x, n_heads):
    batch, length, width = x.shape
    return x.reshape(batch, length, n_heads, width // n_heads)
