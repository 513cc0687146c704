import numpy as np


def _split(t, n_heads):
    batch, length, width = t.shape
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask=None):
    batch, length, width = x.shape
    q, k, v = _split(x @ w_q, n_heads), _split(x @ w_k, n_heads), _split(x @ w_v, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(width // n_heads)
    if mask is not None:
        scores = scores + mask
    # Normalised along axis -2, the queries, instead of the keys.
    scores = scores - scores.max(axis=-2, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-2, keepdims=True)
    heads = weights @ v
    return heads.transpose(0, 2, 1, 3).reshape(batch, length, width) @ w_o
