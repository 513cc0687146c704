import numpy as np


def softmax_backward(probs: np.ndarray, grad_probs: np.ndarray, axis: int) -> np.ndarray:
    """Reference: (diag(p) - p p^T) g per slice, as p * (g - <g, p>), never forming the matrix."""
    # keepdims=True keeps the reduced axis (length 1), so the per-slice sums broadcast back
    # against the inputs whatever the axis is. Every operation allocates a new array.
    weighted = np.sum(grad_probs * probs, axis=axis, keepdims=True)
    return np.asarray(probs * (grad_probs - weighted), dtype=np.float64)
