import numpy as np


def quantize_int8(w: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Reference: symmetric absmax int8 quantisation, one scale per index along ``axis``."""
    axis = axis % w.ndim
    others = tuple(a for a in range(w.ndim) if a != axis)
    absmax = np.abs(w).max(axis=others, keepdims=True) if others else np.abs(w)
    scale = np.where(absmax > 0, absmax / 127, 1.0)  # an all-zero slice gets scale 1
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)  # np.round rounds half to even
    return q, scale.reshape(-1)
