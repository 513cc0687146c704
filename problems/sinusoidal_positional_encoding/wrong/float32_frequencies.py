import numpy as np


def sinusoidal_positional_encoding(length: int, d_model: int) -> np.ndarray:
    positions = np.arange(length)[:, None]
    # Ported from a PyTorch snippet: torch.arange(0, d_model, 2).float()
    div_term = np.power(10000.0, np.arange(0, d_model, 2, dtype=np.float32) / d_model)
    angles = positions / div_term
    pe = np.zeros((length, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
