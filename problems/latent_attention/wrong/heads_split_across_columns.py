import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_o, n_heads):
    b, l, _ = x.shape
    c = x @ w_dkv
    # (B, L, H*d) read as (B, L, d, H): head h takes every H-th column.
    split = lambda t: t.reshape(b, l, -1, n_heads).transpose(0, 3, 1, 2)
    q, k, v = split(x @ w_q), split(c @ w_uk), split(c @ w_uv)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1]) + np.triu(np.full((l, l), -np.inf), 1)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(0, 2, 3, 1).reshape(b, l, -1) @ w_o
