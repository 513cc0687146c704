import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_o, n_heads):
    # Only the values go through the latent; the keys come from x like the queries.
    b, l, _ = x.shape
    c = x @ w_dkv
    split = lambda t: t.reshape(b, l, n_heads, -1).transpose(0, 2, 1, 3)
    q = split(x @ w_q)
    k = split(x @ w_q)
    v = split(c @ w_uv)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1]) + np.triu(np.full((l, l), -np.inf), 1)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(0, 2, 1, 3).reshape(b, l, -1) @ w_o
