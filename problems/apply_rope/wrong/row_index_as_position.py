import numpy as np


def apply_rope(x, positions):
    d, length = x.shape[-1], x.shape[-2]
    inv_freq = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = np.arange(length)[:, None] * inv_freq[None, :]  # row l is "position l"
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
