import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_o, n_heads):
    b, l, _ = x.shape
    c = x @ w_dkv
    r = c.shape[-1]
    split = lambda t: t.reshape(b, l, n_heads, -1).transpose(0, 2, 1, 3)
    q, k, v = split(x @ w_q), split(c @ w_uk), split(c @ w_uv)
    s = np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(r)
    s = np.where(np.tril(np.ones((l, l), dtype=bool)), s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return np.einsum("bhij,bhjd->bihd", w, v).reshape(b, l, -1) @ w_o
