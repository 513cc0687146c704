import numpy as np


def sinusoidal_positional_encoding(length: int, d_model: int) -> np.ndarray:
    positions = np.arange(1, length + 1)[:, None]  # "the first token is position 1"
    angles = positions / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((length, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
