import numpy as np


def _split(t, n_heads):
    batch, length, width = t.shape
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def cross_attention(x, context, w_q, w_k, w_v, w_o, n_heads):
    batch, _, width = x.shape
    # The context asks and x answers: the roles of the two sequences are swapped.
    q = _split(context @ w_q, n_heads)
    k = _split(x @ w_k, n_heads)
    v = _split(x @ w_v, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(width // n_heads)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    heads = weights @ v
    return heads.transpose(0, 2, 1, 3).reshape(batch, heads.shape[2], width) @ w_o
