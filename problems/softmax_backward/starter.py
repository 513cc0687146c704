import numpy as np


def softmax_backward(probs: np.ndarray, grad_probs: np.ndarray, axis: int) -> np.ndarray:
    """Vector-Jacobian product of a softmax taken along `axis`.

    Args:
        probs: float64 array, the softmax's output p (each slice along `axis` sums to 1).
        grad_probs: float64 array of the same shape, the gradient of the loss with
            respect to p.
        axis: the axis the softmax normalised, a Python int; negative values count
            from the end.

    Returns:
        A new float64 array of the same shape: the gradient of the loss with respect
        to the softmax's input logits. Neither input is modified.
    """
    raise NotImplementedError("p times (the gradient minus its p-weighted sum along the axis)")
