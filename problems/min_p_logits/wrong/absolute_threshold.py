import numpy as np


def min_p_logits(logits, min_p):
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    # The cut is min_p itself, not min_p times the top probability.
    return np.where(probs >= min_p, logits, -np.inf)
