import numpy as np


def layer_norm_backward(x: np.ndarray, gamma: np.ndarray, grad_out: np.ndarray, eps: float) -> np.ndarray:
    """Reference: d loss / d x of gamma * (x - mean) / sqrt(var + eps) + beta, over the last axis."""
    centred = x - x.mean(axis=-1, keepdims=True)  # two-pass variance: no cancellation for large offsets
    inv_std = 1.0 / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + eps)
    x_hat = centred * inv_std
    grad_hat = grad_out * gamma  # gradient at the normalised x; beta does not reach x
    # Remove the part of grad_hat along the all-ones direction (the mean path) and along x_hat
    # (the variance path), then undo the division by the standard deviation.
    projected = (grad_hat - grad_hat.mean(axis=-1, keepdims=True)
                 - x_hat * np.mean(grad_hat * x_hat, axis=-1, keepdims=True))
    return np.asarray(inv_std * projected, dtype=np.float64)
