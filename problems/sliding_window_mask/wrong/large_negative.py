import numpy as np


def sliding_window_mask(length, window):
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    return np.where((j <= i) & (j > i - window), 0.0, -1e9)
