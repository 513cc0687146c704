import numpy as np


def quantize_int8(w: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric absmax int8 quantisation with one scale per slice along ``axis``.

    Args:
        w: float64 array of any shape (at least one axis).
        axis: a Python int, the axis that keeps one scale per index (negative counts from the end).

    Returns:
        (q, scale): q is int8 of w's shape, scale is float64 of shape (w.shape[axis],).
        For index j along axis, scale[j] = max |w| over that slice / 127 (1 for an all-zero
        slice), and q = clip(round_half_even(w / scale), -127, 127) with scale broadcast along axis.
    """
    raise NotImplementedError("absmax over every axis but `axis`, divide by 127, round half to even, clip, int8")
