import numpy as np


def quantize_int8(w, axis):
    # One absmax for the whole tensor, repeated for every slice.
    absmax = np.abs(w).max()
    scale = absmax / 127 if absmax > 0 else 1.0
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, np.full(w.shape[axis], scale)
