import numpy as np


def causal_mask(length):
    # True marks the positions to block, like torch's attn_mask
    return np.triu(np.ones((length, length), dtype=bool), k=1)
