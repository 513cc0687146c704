import numpy as np


def top_k_logits(logits: np.ndarray, k: int) -> np.ndarray:
    """Reference: keep every entry >= the k-th largest of its row (ties kept), -inf elsewhere."""
    # np.partition puts the k-th largest value of each row at position V - k, in O(V).
    kth = np.partition(logits, -k, axis=-1)[..., -k]
    return np.where(logits >= kth[..., None], logits, -np.inf)
