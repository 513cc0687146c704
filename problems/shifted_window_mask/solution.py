import numpy as np


def _regions(size: int, window: int, shift: int) -> np.ndarray:
    # Along one axis of the shifted map: 0 before the last window, then the part of the last window
    # that was there before the shift, then the part that wrapped around from the other side.
    labels = np.zeros(size, dtype=np.int64)
    labels[size - window:] = 1
    labels[size - shift:] = 2 if shift else 1
    return labels


def shifted_window_mask(H: int, W: int, window: int, shift: int) -> np.ndarray:
    """Reference: Swin's attention mask for shifted windows, with -inf where Swin puts -100."""
    label = 3 * _regions(H, window, shift)[:, None] + _regions(W, window, shift)[None, :]  # (H, W)
    # Swin's window_partition of the label map: (H/w, w, W/w, w) -> (nW, w * w), windows row by row.
    windows = label.reshape(H // window, window, W // window, window).transpose(0, 2, 1, 3)
    windows = windows.reshape(-1, window * window)
    same = windows[:, None, :] == windows[:, :, None]  # (nW, w*w queries, w*w keys)
    return np.where(same, 0.0, -np.inf)
