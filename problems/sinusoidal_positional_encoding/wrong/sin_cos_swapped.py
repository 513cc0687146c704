import numpy as np


def sinusoidal_positional_encoding(length: int, d_model: int) -> np.ndarray:
    positions = np.arange(length)[:, None]
    angles = positions / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((length, d_model))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles)
    return pe
