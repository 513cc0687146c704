import numpy as np


def sample_next_token(logits, temperature, u):
    weights = np.exp(logits / temperature)
    cumulative = np.cumsum(weights / weights.sum(axis=-1, keepdims=True), axis=-1)
    return np.argmax(cumulative > u[:, None], axis=-1)
