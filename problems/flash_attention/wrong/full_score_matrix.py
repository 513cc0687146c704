import numpy as np


def flash_attention(q, k, v, block_size, causal):
    # Ordinary attention: correct values, but the whole (L, L) score matrix at once.
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        length = q.shape[-2]
        scores = scores + np.triu(np.full((length, length), -np.inf), k=1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ v
