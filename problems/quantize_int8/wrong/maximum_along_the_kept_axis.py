import numpy as np


def quantize_int8(w, axis):
    # Reduces along `axis` itself: one scale per index of the other axes.
    absmax = np.abs(w).max(axis=axis, keepdims=True)
    scale = np.where(absmax > 0, absmax / 127, 1.0)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return q, scale.reshape(-1)
