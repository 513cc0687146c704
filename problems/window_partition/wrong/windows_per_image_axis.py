import numpy as np


def window_partition(x, window):
    batch, height, width, channels = x.shape
    grid = x.reshape(batch, height // window, window, width // window, window, channels)
    windows = grid.transpose(0, 1, 3, 2, 4, 5)
    return windows.reshape(batch, -1, window * window, channels)  # (B, nW, w*w, C)
