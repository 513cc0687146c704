import numpy as np


def sliding_window_mask(length, window):
    ones = np.ones((length, length))
    return np.tril(ones) - np.tril(ones, k=-window)
