import numpy as np

NAMES = ("attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down")


def rms_norm(x, g, eps):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * g


def rope(x, positions):
    d = x.shape[-1]
    angle = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * np.cos(angle) - x[..., 1::2] * np.sin(angle)
    out[..., 1::2] = x[..., 0::2] * np.sin(angle) + x[..., 1::2] * np.cos(angle)
    return out


def forward(ids, params, n_heads, n_kv_heads, eps, cache, start):
    """Run the new tokens ids (B, T), at positions start.., through every layer; cache[l] = (keys, values)."""
    b, t = ids.shape
    positions = np.arange(start, start + t)
    x = params["tok_embed"][ids]
    for l in range(params["w_q"].shape[0]):
        p = {name: params[name][l] for name in NAMES}
        u = rms_norm(x, p["attn_norm"], eps)
        q = rope((u @ p["w_q"]).reshape(b, t, n_heads, -1).transpose(0, 2, 1, 3), positions)
        k = rope((u @ p["w_k"]).reshape(b, t, n_kv_heads, -1).transpose(0, 2, 1, 3), positions)
        v = (u @ p["w_v"]).reshape(b, t, n_kv_heads, -1).transpose(0, 2, 1, 3)
        if l < len(cache):
            k = np.concatenate([cache[l][0], k], axis=2)
            v = np.concatenate([cache[l][1], v], axis=2)
            cache[l] = (k, v)
        else:
            cache.append((k, v))
        keys = np.repeat(k, n_heads // n_kv_heads, axis=1)
        values = np.repeat(v, n_heads // n_kv_heads, axis=1)
        s = q @ keys.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
        total = keys.shape[2]
        s = s + np.triu(np.full((t, total), -np.inf), k=total - t + 1)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        w = w / w.sum(axis=-1, keepdims=True)
        h = x + (w @ values).transpose(0, 2, 1, 3).reshape(b, t, -1) @ p["w_o"]
        u = rms_norm(h, p["ffn_norm"], eps)
        g = u @ p["w_gate"]
        x = h + (g / (1 + np.exp(-g)) * (u @ p["w_up"])) @ p["w_down"]
    return rms_norm(x[:, -1], params["norm"], eps) @ params["w_out"]


def llama_decode_with_kv_cache(prompt_ids, params, n_heads, n_kv_heads, eps, n_new):
    ids = prompt_ids.copy()
    if n_new == 0:
        return ids
    cache = []
    forward(ids, params, n_heads, n_kv_heads, eps, cache, 0)  # fills the cache
    token = ids[:, -1:]
    for step in range(n_new):
        logits = forward(token, params, n_heads, n_kv_heads, eps, cache, ids.shape[1] + step)
        token = np.argmax(logits, axis=-1)[:, None]
        ids = np.concatenate([ids, token], axis=1)
    return ids
