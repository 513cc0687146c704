import numpy as np


def _split(t, n_heads):
    batch, length, width = t.shape
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def cross_attention(x, context, w_q, w_k, w_v, w_o, n_heads):
    batch, l_q, width = x.shape
    q = _split(x @ w_q, n_heads)
    k = _split(context @ w_v, n_heads)  # the value matrix used for the keys...
    v = _split(context @ w_k, n_heads)  # ...and the key matrix for the values
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(width // n_heads)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(batch, l_q, width) @ w_o
