import numpy as np


def latent_attention(x, w_dkv, w_uk, w_uv, w_q, w_o, n_heads):
    b, l, _ = x.shape
    c = x @ w_dkv
    split = lambda t: t.reshape(b, l, n_heads, -1).transpose(0, 2, 1, 3)
    q, k, v = split(x @ w_q), split(c @ w_uk), split(c @ w_uv)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    w = w * np.tril(np.ones((l, l)))  # the future zeroed after the softmax
    return (w @ v).transpose(0, 2, 1, 3).reshape(b, l, -1) @ w_o
