import numpy as np

BLOCK = ("attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down")


def _rms_norm(x: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * gain


def _rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    # apply_rope's convention: pairs (2i, 2i + 1) turned by positions * 10000^(-2i/d).
    d = x.shape[-1]
    angles = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def _silu(z: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(z))
    return z * np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


class _Cache:
    """Every layer's keys (already rotated, each by its own position) and values, n_kv_heads heads each,
    (N, B, Hkv, total, d), filled from the left; ``size`` positions are valid."""

    def __init__(self, params: dict, batch: int, n_heads: int, n_kv_heads: int, total: int) -> None:
        layers, _, width = params["w_q"].shape
        d = width // n_heads
        self.keys = np.zeros((layers, batch, n_kv_heads, total, d))
        self.values = np.zeros((layers, batch, n_kv_heads, total, d))
        self.size = 0


def _attend(u: np.ndarray, p: dict, layer: int, n_heads: int, n_kv_heads: int, cache: _Cache) -> np.ndarray:
    # u holds T new rows at positions start .. start + T - 1; their keys and values join the cache, and row
    # i sees every cached position and the new rows up to itself.
    batch, count, _ = u.shape
    start, end = cache.size, cache.size + count
    positions = np.arange(start, end)

    def heads(t: np.ndarray, n: int) -> np.ndarray:
        return t.reshape(batch, count, n, -1).transpose(0, 2, 1, 3)

    cache.keys[layer, :, :, start:end] = _rope(heads(u @ p["w_k"], n_kv_heads), positions)
    cache.values[layer, :, :, start:end] = heads(u @ p["w_v"], n_kv_heads)
    q = _rope(heads(u @ p["w_q"], n_heads), positions)  # (B, H, T, d)
    group = n_heads // n_kv_heads
    q = q.reshape(batch, n_kv_heads, group * count, -1)  # each kv head's group of query heads, rows stacked
    scores = q @ np.swapaxes(cache.keys[layer, :, :, :end], -1, -2) / np.sqrt(q.shape[-1])
    scores = scores.reshape(batch, n_kv_heads, group, count, end)
    if count > 1:  # one new row may see every key there is
        scores = scores + np.triu(np.full((count, end), -np.inf), k=start + 1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = (weights / weights.sum(axis=-1, keepdims=True)).reshape(batch, n_kv_heads, group * count, end)
    out = (weights @ cache.values[layer, :, :, :end]).reshape(batch, n_heads, count, -1)
    return out.transpose(0, 2, 1, 3).reshape(batch, count, -1) @ p["w_o"]


def _run(ids: np.ndarray, params: dict, n_heads: int, n_kv_heads: int, eps: float, cache: _Cache) -> np.ndarray:
    """The model over the T tokens ``ids`` (B, T) that follow the cached ones: the next token's logits (B, V)."""
    stream = params["tok_embed"][ids]
    for layer in range(params["w_q"].shape[0]):
        p = {key: params[key][layer] for key in BLOCK}
        h = stream + _attend(_rms_norm(stream, p["attn_norm"], eps), p, layer, n_heads, n_kv_heads, cache)
        u = _rms_norm(h, p["ffn_norm"], eps)
        stream = h + (_silu(u @ p["w_gate"]) * (u @ p["w_up"])) @ p["w_down"]
    cache.size += ids.shape[1]
    return _rms_norm(stream[:, -1], params["norm"], eps) @ params["w_out"]


def llama_decode_with_kv_cache(prompt_ids: np.ndarray, params: dict, n_heads: int, n_kv_heads: int, eps: float,
                               n_new: int) -> np.ndarray:
    """Reference: the prompt in one causal pass that fills the cache, then one position per new token."""
    batch, length = prompt_ids.shape
    out = np.empty((batch, length + n_new), dtype=np.int64)
    out[:, :length] = prompt_ids
    if n_new == 0:
        return out
    cache = _Cache(params, batch, n_heads, n_kv_heads, length + n_new - 1)
    logits = _run(out[:, :length], params, n_heads, n_kv_heads, eps, cache)
    for t in range(length, length + n_new):
        out[:, t] = np.argmax(logits, axis=-1)  # ties go to the lowest id
        if t + 1 < length + n_new:  # the last token chosen is never fed back
            logits = _run(out[:, t : t + 1], params, n_heads, n_kv_heads, eps, cache)
    return out
