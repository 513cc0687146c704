import numpy as np


def sample_next_token(logits, temperature, u):
    scaled = logits / temperature
    weights = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    cumulative = np.cumsum(weights / weights.sum(axis=-1, keepdims=True), axis=-1)
    tokens = np.zeros(len(u))
    for row in range(len(u)):
        tokens[row] = np.searchsorted(cumulative[row], u[row], side="right")
    return tokens
