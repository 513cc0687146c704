import numpy as np


def window_partition(x, window):
    batch, height, width, channels = x.shape
    # The window index taken as the fast axis: each "window" gathers every (H / w)-th pixel.
    grid = x.reshape(batch, window, height // window, window, width // window, channels)
    windows = grid.transpose(0, 2, 4, 1, 3, 5)
    return windows.reshape(-1, window * window, channels)
