import numpy as np


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """Reference: cut the feature axis into heads, then move the head axis forward."""
    batch, length, width = x.shape
    head_width = width // n_heads  # integer division: reshape needs ints
    # (B, L, D) -> (B, L, H, d): head h owns features h*d .. (h+1)*d - 1.
    per_head = x.reshape(batch, length, n_heads, head_width)
    # (B, L, H, d) -> (B, H, L, d): swap the token and head axes. The copy makes
    # a new contiguous array, so nothing shares memory with the caller's x.
    return np.ascontiguousarray(per_head.transpose(0, 2, 1, 3), dtype=np.float64)
