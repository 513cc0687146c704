import numpy as np


def rms_norm(x: np.ndarray, gamma: np.ndarray, eps: float) -> np.ndarray:
    """Reference: x / sqrt(mean(x^2) + eps) * gamma over the last axis; no centring, no shift."""
    mean_square = np.mean(x * x, axis=-1, keepdims=True)
    return np.asarray(x / np.sqrt(mean_square + eps) * gamma, dtype=np.float64)
