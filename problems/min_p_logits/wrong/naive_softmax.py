import numpy as np


def min_p_logits(logits, min_p):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(logits)
        probs = e / e.sum(axis=-1, keepdims=True)
    cut = min_p * probs.max(axis=-1, keepdims=True)
    return np.where(probs >= cut, logits, -np.inf)
