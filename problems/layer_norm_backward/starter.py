import numpy as np


def layer_norm_backward(x: np.ndarray, gamma: np.ndarray, grad_out: np.ndarray, eps: float) -> np.ndarray:
    """Gradient of the loss with respect to the input of a layer normalisation.

    The forward is y = gamma * (x - mean) / sqrt(var + eps) + beta over the last axis,
    with the biased variance (divide by D). beta does not affect d loss / d x.

    Args:
        x: float64 array of shape (..., D), the layer norm's input.
        gamma: float64 array of shape (D,), the scale.
        grad_out: float64 array of the same shape as x, d loss / d y.
        eps: a Python float > 0, added to the variance inside the square root.

    Returns:
        A new float64 array of the same shape as x: d loss / d x. No input is modified.
    """
    raise NotImplementedError("the gradient through the scale, the variance and the mean")
