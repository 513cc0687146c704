import numpy as np


def merge_heads(x):
    batch, n_heads, length, head_width = x.shape
    return x.reshape(batch, length, n_heads * head_width)
