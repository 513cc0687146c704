import numpy as np


def min_p_logits(logits, min_p):
    # Scales the largest logit instead of the largest probability.
    cut = min_p * logits.max(axis=-1, keepdims=True)
    return np.where(logits >= cut, logits, -np.inf)
