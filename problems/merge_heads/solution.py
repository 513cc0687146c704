import numpy as np


def merge_heads(x: np.ndarray) -> np.ndarray:
    """Reference: the inverse of split_heads. Move tokens forward, then join the heads' features."""
    batch, n_heads, length, head_width = x.shape
    # (B, H, L, d) -> (B, L, H, d): each token's heads side by side.
    per_token = x.transpose(0, 2, 1, 3)
    # (B, L, H, d) -> (B, L, H*d): head h fills features h*d .. (h+1)*d - 1.
    # reshape copies here (the transposed view is not contiguous), so the
    # result never shares memory with the caller's x.
    return np.ascontiguousarray(per_token.reshape(batch, length, n_heads * head_width), dtype=np.float64)
