import math

import numpy as np


def gelu_backward(x: np.ndarray, grad_out: np.ndarray) -> np.ndarray:
    """Backward pass of the exact GELU, y = x * Phi(x), elementwise.

    Args:
        x: float64 array of any shape (at least 1-D), the GELU's input in the forward pass.
        grad_out: float64 array of the same shape, the gradient of the loss with respect
            to the GELU's output y.

    Returns:
        A new float64 array of the same shape: the gradient of the loss with respect to x,
        grad_out * (Phi(x) + x * phi(x)), where Phi is the standard normal CDF and phi its
        density. Neither input is modified.

    NumPy has no erf and SciPy is not available: use math.erf entry by entry
    (np.vectorize), or build an accurate erf from NumPy operations.
    """
    raise NotImplementedError("the product rule on x * Phi(x), times grad_out")
