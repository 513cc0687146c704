import numpy as np


def merge_heads(x):
    batch, n_heads, length, head_width = x.shape
    # (B, L, d, H): feature c of every head, then feature c + 1, ...
    return x.transpose(0, 2, 3, 1).reshape(batch, length, head_width * n_heads)
