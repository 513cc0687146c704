import numpy as np


def sliding_window_mask(length, window):
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    # "window keys back": i - window itself is included, so each query sees window + 1 keys.
    return np.where((j <= i) & (j >= i - window), 0.0, -np.inf)
