import numpy as np


def sample_next_token(logits, temperature, u):
    scaled = logits / temperature
    weights = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    cumulative = np.cumsum(weights / weights.sum(axis=-1, keepdims=True), axis=-1)
    return np.array([np.searchsorted(row, value, side="left") for row, value in zip(cumulative, u)], dtype=np.int64)
