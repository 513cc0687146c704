import numpy as np


def padding_mask(lengths: np.ndarray, max_len: int) -> np.ndarray:
    """Reference: block key position j of sequence b when j >= lengths[b]."""
    positions = np.arange(max_len)  # (max_len,)
    # (1, max_len) against (B, 1): one row of comparisons per sequence. Comparing
    # integer positions with float64 whole numbers is exact.
    blocked = positions[None, :] >= lengths[:, None]
    mask = np.where(blocked, -np.inf, 0.0)  # (B, max_len), a new array
    # Axes of length 1 for the heads and the queries, so the mask broadcasts
    # against scores of shape (B, H, L_q, max_len).
    return np.ascontiguousarray(mask[:, None, None, :], dtype=np.float64)
