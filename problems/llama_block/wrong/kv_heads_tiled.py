import numpy as np


def rms_norm(x, g, eps):
    return x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * g


def rope(x, positions):
    d = x.shape[-1]
    theta = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * np.cos(theta) - x[..., 1::2] * np.sin(theta)
    out[..., 1::2] = x[..., 0::2] * np.sin(theta) + x[..., 1::2] * np.cos(theta)
    return out


def llama_block(x, params, n_heads, n_kv_heads, positions, eps):
    p = params
    b, l, _ = x.shape
    u = rms_norm(x, p["attn_norm"], eps)
    split = lambda t, n: t.reshape(b, l, n, -1).transpose(0, 2, 1, 3)
    q = rope(split(u @ p["w_q"], n_heads), positions)
    k = rope(split(u @ p["w_k"], n_kv_heads), positions)
    v = split(u @ p["w_v"], n_kv_heads)
    k = np.tile(k, (1, n_heads // n_kv_heads, 1, 1))
    v = np.tile(v, (1, n_heads // n_kv_heads, 1, 1))
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1]) + np.triu(np.full((l, l), -np.inf), 1)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    h = x + (w @ v).transpose(0, 2, 1, 3).reshape(b, l, -1) @ p["w_o"]
    u = rms_norm(h, p["ffn_norm"], eps)
    g = u @ p["w_gate"]
    return h + (g / (1 + np.exp(-g)) * (u @ p["w_up"])) @ p["w_down"]
