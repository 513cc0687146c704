import numpy as np


def top_p_logits(logits, p):
    ordered = -np.sort(-logits, axis=-1)
    # The cumulative sum of raw logits, not of probabilities.
    above = np.cumsum(ordered, axis=-1) - ordered
    kept = np.maximum(np.sum(above < p, axis=-1, keepdims=True), 1)
    threshold = np.take_along_axis(ordered, kept - 1, axis=-1)
    return np.where(logits >= threshold, logits, -np.inf)
