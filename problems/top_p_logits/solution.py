import numpy as np


def top_p_logits(logits: np.ndarray, p: float) -> np.ndarray:
    """Reference: nucleus filtering. Rank tokens by logit; keep a token when the probability of
    the tokens ranked above it is below p; keep every logit equal to the last one kept."""
    ordered = -np.sort(-logits, axis=-1)  # descending
    shifted = np.exp(ordered - ordered[..., :1])  # the row maximum comes first
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    above = np.cumsum(probs, axis=-1) - probs  # probability ranked strictly above each token
    kept = np.sum(above < p, axis=-1, keepdims=True)  # at least 1: nothing is above the first
    threshold = np.take_along_axis(ordered, kept - 1, axis=-1)
    return np.where(logits >= threshold, logits, -np.inf)
