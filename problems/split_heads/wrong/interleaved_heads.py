import numpy as np


def split_heads(x, n_heads):
    batch, length, width = x.shape
    # (B, L, d, H): the head index runs fastest
    per_head = x.reshape(batch, length, width // n_heads, n_heads)
    return per_head.transpose(0, 3, 1, 2)
