import numpy as np


def merge_heads(x):
    heads = [x[:, h] for h in range(x.shape[1])]  # each (B, L, d)
    return np.concatenate(heads, axis=1)
