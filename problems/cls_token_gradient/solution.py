import numpy as np


def cls_token_gradient(grad_sequence: np.ndarray) -> np.ndarray:
    """Reference: slot 0 of every image, summed over the batch (one token, B uses)."""
    # ':1' keeps the sequence axis and keepdims the batch axis, so the result has the
    # parameter's shape (1, 1, D). np.sum allocates a new array.
    return np.asarray(grad_sequence[:, :1, :].sum(axis=0, keepdims=True), dtype=np.float64)
