import numpy as np


def sliding_window_mask(length, window):
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    return (j > i) | (j <= i - window)
