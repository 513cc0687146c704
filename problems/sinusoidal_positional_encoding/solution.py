import numpy as np


def sinusoidal_positional_encoding(length: int, d_model: int) -> np.ndarray:
    """Reference: one angle per (position, pair), sine in the even column, cosine in the odd one."""
    positions = np.arange(length, dtype=np.float64)[:, None]          # (length, 1)
    pair_starts = np.arange(0, d_model, 2, dtype=np.float64)          # 2i for i = 0 .. d_model/2 - 1
    inverse_wavelength = np.power(10000.0, -pair_starts / d_model)    # (d_model / 2,)
    angles = positions * inverse_wavelength                           # (length, d_model / 2)
    encoding = np.empty((length, d_model), dtype=np.float64)
    encoding[:, 0::2] = np.sin(angles)
    encoding[:, 1::2] = np.cos(angles)
    return encoding
