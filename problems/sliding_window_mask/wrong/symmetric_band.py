import numpy as np


def sliding_window_mask(length, window):
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    return np.where(np.abs(i - j) < window, 0.0, -np.inf)
