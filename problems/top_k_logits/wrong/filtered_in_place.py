import numpy as np


def top_k_logits(logits, k):
    kth = np.sort(logits, axis=-1)[..., -k]
    logits[logits < kth[..., None]] = -np.inf
    return logits
