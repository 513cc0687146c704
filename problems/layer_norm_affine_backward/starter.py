import numpy as np

# Your accepted solution of layer_norm_backward can be imported here:
# from solved import layer_norm_backward


def layer_norm_affine_backward(x: np.ndarray, gamma: np.ndarray, grad_out: np.ndarray, eps: float):
    """Gradients of y = gamma * (x - mean) / sqrt(var + eps) + beta over the last axis.

    Args:
        x: float64 array of shape (..., D), at least one axis.
        gamma: float64 array of shape (D,), the gain.
        grad_out: float64 array of the shape of x, the gradient of the loss with respect to y.
        eps: a small positive Python float inside the square root.

    Returns:
        A tuple (grad_x, grad_gamma, grad_beta) of new float64 arrays of shapes (..., D), (D,)
        and (D,); the last two are summed over every leading axis. No input is modified.
    """
    raise NotImplementedError("grad_x as in layer_norm_backward, then sums of grad_out * x_hat and grad_out")
