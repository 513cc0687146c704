import numpy as np


def top_k_logits(logits, k):
    ordered = np.sort(logits, axis=-1)
    # Index -k - 1 is the (k + 1)-th largest; the last row element would need index -k.
    kth = ordered[..., max(-k - 1, -logits.shape[-1])]
    return np.where(logits >= kth[..., None], logits, -np.inf)
