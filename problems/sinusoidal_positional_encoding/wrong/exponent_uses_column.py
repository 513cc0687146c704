import numpy as np


def sinusoidal_positional_encoding(length: int, d_model: int) -> np.ndarray:
    positions = np.arange(length)[:, None]
    columns = np.arange(d_model)
    angles = positions / 10000.0 ** (columns / d_model)  # each column its own frequency
    return np.where(columns % 2 == 0, np.sin(angles), np.cos(angles))
