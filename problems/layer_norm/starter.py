import numpy as np


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Layer normalisation over the last axis, followed by a learned scale and shift.

    Args:
        x: float64 array of shape (..., D): any number of leading axes, features last.
        gamma: float64 array of shape (D,), the per-feature scale.
        beta: float64 array of shape (D,), the per-feature shift.
        eps: a Python float added to the variance inside the square root.

    Returns:
        A new float64 array of the same shape as x:
        (x - mean) / sqrt(var + eps) * gamma + beta, where mean and var are taken
        over the last axis of x, var with divisor D (the biased variance).
        No input may be modified.
    """
    raise NotImplementedError("normalise each row over its last axis, then scale by gamma and shift by beta")
