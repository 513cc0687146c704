import numpy as np


def top_p_logits(logits, p):
    ordered = -np.sort(-logits, axis=-1)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(ordered)
        probs = e / e.sum(axis=-1, keepdims=True)
    above = np.cumsum(probs, axis=-1) - probs
    kept = np.sum(above < p, axis=-1, keepdims=True)
    threshold = np.take_along_axis(ordered, kept - 1, axis=-1)
    return np.where(logits >= threshold, logits, -np.inf)
