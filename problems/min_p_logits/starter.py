import numpy as np


def min_p_logits(logits: np.ndarray, min_p: float) -> np.ndarray:
    """Min-p filtering of next-token logits.

    Args:
        logits: float64 array of shape (..., V); entries finite or -inf, at least one finite
            entry per row.
        min_p: a Python float, 0 <= min_p <= 1.

    Returns:
        A new float64 array of the same shape: each row's entries whose probability (softmax of
        the row) is at least min_p times the row's largest probability, unchanged; every other
        entry -inf. The input is not modified.
    """
    raise NotImplementedError("softmax each row, cut at min_p times the row's largest probability")
