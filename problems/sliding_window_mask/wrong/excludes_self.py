import numpy as np


def sliding_window_mask(length, window):
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    # The window keys before the query, but not the query itself.
    return np.where((j < i) & (j >= i - window), 0.0, -np.inf)
