import numpy as np


def top_p_logits(logits, p):
    ordered = -np.sort(-logits, axis=-1)
    # One normalising constant for the whole array instead of one per row.
    e = np.exp(ordered - ordered.max())
    probs = e / e.sum()
    above = np.cumsum(probs, axis=-1) - probs
    kept = np.maximum(np.sum(above < p, axis=-1, keepdims=True), 1)
    threshold = np.take_along_axis(ordered, kept - 1, axis=-1)
    return np.where(logits >= threshold, logits, -np.inf)
