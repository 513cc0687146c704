import numpy as np


def window_partition(x, window):
    # Consecutive pixels in raster order, window * window at a time: strips, not squares.
    return x.reshape(-1, window * window, x.shape[-1])
