import numpy as np


def _regions(size, window, shift):
    # As if the map were rolled down and right (+shift): the wrapped part is at the start.
    labels = np.zeros(size, dtype=np.int64)
    labels[shift:] = 1
    labels[window:] = 2
    return labels


def shifted_window_mask(H, W, window, shift):
    label = 3 * _regions(H, window, shift)[:, None] + _regions(W, window, shift)[None, :]
    windows = label.reshape(H // window, window, W // window, window).transpose(0, 2, 1, 3).reshape(-1, window * window)
    same = windows[:, None, :] == windows[:, :, None]
    return np.where(same, 0.0, -np.inf)
