import numpy as np


def window_partition(x, window):
    batch, height, width, channels = x.shape
    grid = x.reshape(batch, height // window, window, width // window, window, channels)
    windows = grid.transpose(0, 3, 1, 2, 4, 5)  # columns of windows before rows
    return windows.reshape(-1, window * window, channels)
