import numpy as np


def sinusoidal_positional_encoding(length: int, d_model: int) -> np.ndarray:
    positions = np.arange(length)[:, None]
    angles = positions / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=1)
