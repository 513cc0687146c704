import numpy as np


def apply_rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Rotary position embedding (RoFormer's interleaved pairs).

    Args:
        x: float64 array of shape (..., L, d) with d even: queries or keys,
            one row per token, with any number of leading axes.
        positions: float64 array of shape (L,), the position of each row
            (not necessarily whole numbers, sorted or starting at 0).

    Returns:
        A new float64 array of the shape of x in which, for every row l and
        every i < d/2, the pair (x[..., l, 2i], x[..., l, 2i+1]) is rotated
        counter-clockwise by the angle positions[l] * 10000 ** (-2i / d).
        No input may be modified.
    """
    raise NotImplementedError("rotate each pair (2i, 2i+1) of every row by its angle")
