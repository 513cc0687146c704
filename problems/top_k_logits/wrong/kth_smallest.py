import numpy as np


def top_k_logits(logits, k):
    kth = np.partition(logits, k - 1, axis=-1)[..., k - 1]  # the k-th smallest
    return np.where(logits >= kth[..., None], logits, -np.inf)
