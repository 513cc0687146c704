import numpy as np


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Reference: per-row mean and biased variance over the last axis, then the affine map."""
    # keepdims=True keeps the feature axis with length 1, so the (..., 1) statistics broadcast
    # back over the (..., D) input. Centring first (two passes) keeps the variance accurate
    # even when the rows have a large common offset; every operation allocates, so x is untouched.
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = np.mean(centred * centred, axis=-1, keepdims=True)
    normalised = centred / np.sqrt(variance + eps)
    return np.asarray(normalised * gamma + beta, dtype=np.float64)
