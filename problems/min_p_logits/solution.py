import numpy as np


def min_p_logits(logits: np.ndarray, min_p: float) -> np.ndarray:
    """Reference: keep tokens whose probability is at least min_p times the row's largest one."""
    top = logits.max(axis=-1, keepdims=True)
    shifted = np.exp(logits - top)  # the top token gets exp(0) = 1
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    cut = min_p * probs.max(axis=-1, keepdims=True)
    return np.where(probs >= cut, logits, -np.inf)
