import numpy as np


def top_k_logits(logits, k):
    kth = np.sort(logits, axis=-1)[..., -k]
    return np.where(logits >= kth[..., None], logits, 0.0)
