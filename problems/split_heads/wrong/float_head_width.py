import numpy as np


def split_heads(x, n_heads):
    batch, length, width = x.shape
    head_width = width / n_heads
    return x.reshape(batch, length, n_heads, head_width).transpose(0, 2, 1, 3)
