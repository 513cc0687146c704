import numpy as np


def window_partition(x: np.ndarray, window: int) -> np.ndarray:
    """Reference: Swin's window_partition, windows in (image, window row, window column) order."""
    batch, height, width, channels = x.shape
    grid = x.reshape(batch, height // window, window, width // window, window, channels)
    # (B, rows of windows, window, columns of windows, window, C) -> windows first, pixels inside.
    windows = grid.transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(windows.reshape(-1, window * window, channels))
