import numpy as np


def apply_rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Reference: rotate each interleaved pair (2i, 2i+1) by positions[l] * 10000^(-2i/d)."""
    d = x.shape[-1]
    inv_freq = 10000.0 ** (-np.arange(0, d, 2) / d)  # (d/2,): 1, ..., down to ~1/10000
    angles = positions[:, None] * inv_freq[None, :]  # (L, d/2), broadcasts over the leading axes of x
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]  # views of x; only read, never written
    out = np.empty_like(x, dtype=np.float64)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
