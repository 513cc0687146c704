import numpy as np


def _softmax(scores):
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask=None):
    batch, length, width = x.shape
    d_head = width // n_heads
    # Straight to (B, H, L, d): the right shape, but rows are cut from the wrong memory.
    q = (x @ w_q).reshape(batch, n_heads, length, d_head)
    k = (x @ w_k).reshape(batch, n_heads, length, d_head)
    v = (x @ w_v).reshape(batch, n_heads, length, d_head)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    if mask is not None:
        scores = scores + mask
    heads = _softmax(scores) @ v
    return heads.reshape(batch, length, width) @ w_o
