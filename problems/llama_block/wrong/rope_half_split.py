import numpy as np


def rms_norm(x, g, eps):
    return x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * g


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def rope(x, positions):
    # Hugging Face's LlamaRotaryEmbedding: pairs (i, i + d/2).
    d = x.shape[-1]
    inv_freq = 1.0 / 10000 ** (np.arange(0, d, 2) / d)
    angles = np.concatenate([positions[:, None] * inv_freq] * 2, axis=-1)
    return x * np.cos(angles) + rotate_half(x) * np.sin(angles)


def llama_block(x, params, n_heads, n_kv_heads, positions, eps):
    p = params
    b, l, _ = x.shape
    u = rms_norm(x, p["attn_norm"], eps)
    q = (u @ p["w_q"]).reshape(b, l, n_heads, -1).transpose(0, 2, 1, 3)
    k = (u @ p["w_k"]).reshape(b, l, n_kv_heads, -1).transpose(0, 2, 1, 3)
    v = (u @ p["w_v"]).reshape(b, l, n_kv_heads, -1).transpose(0, 2, 1, 3)
    q, k = rope(q, positions), rope(k, positions)
    k = np.repeat(k, n_heads // n_kv_heads, axis=1)
    v = np.repeat(v, n_heads // n_kv_heads, axis=1)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1]) + np.triu(np.full((l, l), -np.inf), 1)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    h = x + (w @ v).transpose(0, 2, 1, 3).reshape(b, l, -1) @ p["w_o"]
    u = rms_norm(h, p["ffn_norm"], eps)
    g = u @ p["w_gate"]
    return h + (g / (1 + np.exp(-g)) * (u @ p["w_up"])) @ p["w_down"]
