import numpy as np


def top_k_logits(logits: np.ndarray, k: int) -> np.ndarray:
    """Top-k filtering of next-token logits.

    Args:
        logits: float64 array of shape (..., V), one row of vocabulary logits per position;
            entries may already be -inf (tokens that are never allowed).
        k: a Python int, 1 <= k <= V.

    Returns:
        A new float64 array of the same shape: every entry that is at least the k-th largest
        value of its row keeps its value (ties at the k-th value are all kept), every other
        entry is -inf. The input is not modified.
    """
    raise NotImplementedError("find each row's k-th largest value and set everything below it to -inf")
