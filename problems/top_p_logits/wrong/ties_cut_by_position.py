import numpy as np


def top_p_logits(logits, p):
    order = np.argsort(-logits, axis=-1, kind="stable")
    ordered = np.take_along_axis(logits, order, axis=-1)
    e = np.exp(ordered - ordered[..., :1])
    probs = e / e.sum(axis=-1, keepdims=True)
    keep_sorted = (np.cumsum(probs, axis=-1) - probs) < p
    # Exactly the ranked prefix: of two equal logits at the boundary, only the first survives.
    keep = np.zeros(logits.shape, dtype=bool)
    np.put_along_axis(keep, order, keep_sorted, axis=-1)
    return np.where(keep, logits, -np.inf)
