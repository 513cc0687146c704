import numpy as np


def top_k_logits(logits, k):
    # The k-th largest of the whole array, not of each row.
    kth = np.sort(logits, axis=None)[-k]
    return np.where(logits >= kth, logits, -np.inf)
