import numpy as np


def linear_backward(x: np.ndarray, weight: np.ndarray, grad_out: np.ndarray):
    """Gradients of a linear layer y = x @ weight + bias.

    Args:
        x: float64 array of shape (..., D_in), the layer's input (any number of leading axes, even none).
        weight: float64 array of shape (D_in, D_out).
        grad_out: float64 array of shape (..., D_out), the gradient of the loss with respect to y.

    Returns:
        A tuple (grad_x, grad_weight, grad_bias) of new float64 arrays of shapes (..., D_in),
        (D_in, D_out) and (D_out,); the last two are summed over every leading axis.
        No input is modified.
    """
    raise NotImplementedError("grad_out @ weight.T, then x^T grad_out and the sum of grad_out over the rows")
