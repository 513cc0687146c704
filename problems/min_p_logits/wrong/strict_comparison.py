import numpy as np


def min_p_logits(logits, min_p):
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    cut = min_p * probs.max(axis=-1, keepdims=True)
    return np.where(probs > cut, logits, -np.inf)
