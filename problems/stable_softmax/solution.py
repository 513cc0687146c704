import numpy as np


def stable_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """Reference: shift each slice by its own maximum, exponentiate, normalise."""
    # keepdims=True keeps the reduced axis (length 1) so the maxima and sums
    # broadcast back against x whatever the axis is. The binary '-' allocates a
    # new array, so x is never written.
    shifted = x - np.max(x, axis=axis, keepdims=True)
    weights = np.exp(shifted)  # every exponent is <= 0, so nothing overflows
    return np.asarray(weights / np.sum(weights, axis=axis, keepdims=True), dtype=np.float64)
