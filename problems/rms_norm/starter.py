import numpy as np


def rms_norm(x: np.ndarray, gamma: np.ndarray, eps: float) -> np.ndarray:
    """RMSNorm over the last axis.

    Args:
        x: float64 array of shape (..., D), features last.
        gamma: float64 array of shape (D,), the learned per-feature gain.
        eps: a Python float added to the mean of squares inside the square root.

    Returns:
        A new float64 array of the same shape as x: x / sqrt(mean(x^2) + eps) * gamma,
        the mean taken over each token's D features. No input is modified.
    """
    raise NotImplementedError("divide each token by the root of (its mean square + eps), then multiply by gamma")
