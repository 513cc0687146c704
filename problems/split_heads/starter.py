import numpy as np


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """Split the feature axis of x into n_heads heads of equal width.

    Args:
        x: float64 array of shape (B, L, D), one row per token.
        n_heads: the number of heads H, a Python int that divides D.

    Returns:
        A float64 array of shape (B, H, L, D // H) with
        out[b, h, i, :] = x[b, i, h*d:(h+1)*d], where d = D // H.
        x is not modified.
    """
    raise NotImplementedError("reshape to (B, L, H, d), then move the head axis")
