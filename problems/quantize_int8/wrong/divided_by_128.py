import numpy as np


def quantize_int8(w, axis):
    axis = axis % w.ndim
    others = tuple(a for a in range(w.ndim) if a != axis)
    absmax = np.abs(w).max(axis=others, keepdims=True) if others else np.abs(w)
    # int8 reaches -128, so the range is taken as 128 steps: the slice maximum maps to 128, clipped to 127.
    scale = np.where(absmax > 0, absmax / 128, 1.0)
    q = np.clip(np.round(w / scale), -128, 127).astype(np.int8)
    return q, scale.reshape(-1)
