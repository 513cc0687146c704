import numpy as np


def top_p_logits(logits, p):
    ordered = -np.sort(-logits, axis=-1)
    e = np.exp(ordered - ordered[..., :1])
    probs = e / e.sum(axis=-1, keepdims=True)
    kept = np.sum(np.cumsum(probs, axis=-1) - probs < p, axis=-1, keepdims=True)
    threshold = np.take_along_axis(ordered, kept - 1, axis=-1)
    full = np.exp(logits - logits.max(axis=-1, keepdims=True))
    full = full / full.sum(axis=-1, keepdims=True)
    # The kept tokens' probabilities instead of their logits.
    return np.where(logits >= threshold, full, -np.inf)
