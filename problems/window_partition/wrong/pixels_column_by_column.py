import numpy as np


def window_partition(x, window):
    batch, height, width, channels = x.shape
    grid = x.reshape(batch, height // window, window, width // window, window, channels)
    windows = grid.transpose(0, 1, 3, 4, 2, 5)  # inside a window: down the column first
    return windows.reshape(-1, window * window, channels)
