import numpy as np


def _regions(size, window, shift):
    labels = np.zeros(size, dtype=np.int64)
    labels[size - window:] = 1
    labels[size - shift:] = 2 if shift else 1
    return labels


def shifted_window_mask(H, W, window, shift):
    label = 3 * _regions(H, window, shift)[:, None] + _regions(W, window, shift)[None, :]
    windows = label.reshape(H // window, window, W // window, window).transpose(0, 2, 1, 3).reshape(-1, window * window)
    same = windows[:, None, :] == windows[:, :, None]
    return np.where(same, 0.0, -100.0)  # Swin's constant: e^-100 is tiny, but not 0
