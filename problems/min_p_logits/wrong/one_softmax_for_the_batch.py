import numpy as np


def min_p_logits(logits, min_p):
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    # The largest probability of the whole batch, not of each row.
    cut = min_p * probs.max()
    return np.where(probs >= cut, logits, -np.inf)
