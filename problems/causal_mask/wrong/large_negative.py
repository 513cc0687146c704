import numpy as np


def causal_mask(length):
    # -inf can produce NaN, so use a big negative number instead
    return np.triu(np.full((length, length), -1e9), k=1)
