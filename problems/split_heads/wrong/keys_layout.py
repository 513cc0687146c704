import numpy as np


def split_heads(x, n_heads):
    batch, length, width = x.shape
    per_head = x.reshape(batch, length, n_heads, width // n_heads)
    # (B, H, d, L): ready for q @ k without a transpose later
    return per_head.transpose(0, 2, 3, 1)
