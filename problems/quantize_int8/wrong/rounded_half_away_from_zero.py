import numpy as np


def quantize_int8(w, axis):
    axis = axis % w.ndim
    others = tuple(a for a in range(w.ndim) if a != axis)
    absmax = np.abs(w).max(axis=others, keepdims=True) if others else np.abs(w)
    scale = np.where(absmax > 0, absmax / 127, 1.0)
    x = w / scale
    # School rounding: 2.5 -> 3 and -2.5 -> -3, where round-half-to-even gives 2 and -2.
    q = np.sign(x) * np.floor(np.abs(x) + 0.5)
    return np.clip(q, -127, 127).astype(np.int8), scale.reshape(-1)
