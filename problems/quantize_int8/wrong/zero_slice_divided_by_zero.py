import numpy as np


def quantize_int8(w, axis):
    axis = axis % w.ndim
    others = tuple(a for a in range(w.ndim) if a != axis)
    absmax = np.abs(w).max(axis=others, keepdims=True) if others else np.abs(w)
    scale = absmax / 127  # 0 for an all-zero slice: 0 / 0 is NaN
    with np.errstate(invalid="ignore"):
        q = np.clip(np.round(w / scale), -127, 127)
    return np.nan_to_num(q).astype(np.int8), scale.reshape(-1)
