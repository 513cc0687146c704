import numpy as np

# Your accepted solutions of linear_backward and gelu_backward can be imported here:
# from solved import linear_backward, gelu_backward


def feed_forward_backward(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                          grad_out: np.ndarray):
    """Gradients of track 2's feed_forward: GELU(x @ w1 + b1) @ w2 + b2, with the exact GELU.

    Args:
        x: float64 (..., D); w1: (D, H); b1: (H,); w2: (H, D); b2: (D,).
        grad_out: float64 (..., D), the gradient of the loss with respect to the output.

    Returns:
        A tuple (grad_x, grad_w1, grad_b1, grad_w2, grad_b2) of new float64 arrays with the shapes
        of those inputs; the parameter gradients are summed over every leading axis.
        No input is modified.
    """
    raise NotImplementedError("back through the second linear layer, the GELU, then the first linear layer")
