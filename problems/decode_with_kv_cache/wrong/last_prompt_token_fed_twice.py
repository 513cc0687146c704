import math

import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps) * gamma + beta


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def heads(t, n_heads):
    b, l, d = t.shape
    return t.reshape(b, l, n_heads, d // n_heads).transpose(0, 2, 1, 3)


def forward(tokens, start, p, n_heads, cache):
    """Run the tokens at positions start.. through the model, extending cache[l] = (keys, values)."""
    b, n = tokens.shape
    s = p["w_token_embed"][tokens] + p["w_pos_embed"][start : start + n]
    for l in range(p["w_q"].shape[0]):
        u = layer_norm(s, p["ln1_gamma"][l], p["ln1_beta"][l])
        q, k, v = heads(u @ p["w_q"][l], n_heads), heads(u @ p["w_k"][l], n_heads), heads(u @ p["w_v"][l], n_heads)
        if cache[l] is not None:
            k = np.concatenate([cache[l][0], k], axis=2)
            v = np.concatenate([cache[l][1], v], axis=2)
        cache[l] = (k, v)
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(q.shape[-1])
        scores = scores + np.triu(np.full((n, k.shape[2]), -np.inf), k=k.shape[2] - n + 1)
        w = np.exp(scores - scores.max(axis=-1, keepdims=True))
        o = (w / w.sum(axis=-1, keepdims=True)) @ v
        s = s + o.transpose(0, 2, 1, 3).reshape(s.shape) @ p["w_o"][l]
        s = s + gelu(layer_norm(s, p["ln2_gamma"][l], p["ln2_beta"][l]) @ p["w1"][l] + p["b1"][l]) @ p["w2"][l] + p["b2"][l]
    return layer_norm(s[:, -1], p["ln_gamma"], p["ln_beta"]) @ p["w_unembed"]


def decode_with_kv_cache(prompt_ids, params, n_heads, n_new):
    cache = [None] * params["w_q"].shape[0]
    ids = [prompt_ids]
    length = prompt_ids.shape[1]
    forward(prompt_ids, 0, params, n_heads, cache)  # fill the cache with the prompt
    token = prompt_ids[:, -1:]
    for step in range(n_new):
        # Start from the last token of the prompt, then feed each new one.
        logits = forward(token, length + step, params, n_heads, cache)
        token = logits.argmax(axis=-1)[:, None]
        ids.append(token)
    return np.concatenate(ids, axis=1)
