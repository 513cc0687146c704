import numpy as np


def _rms_norm(x: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * gain


def _rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    # apply_rope's convention: pairs (2i, 2i + 1) turned by positions * 10000^(-2i/d).
    d = x.shape[-1]
    angles = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)  # (L, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(x.shape)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def _silu(z: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(z))
    return z * np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _attention(u: np.ndarray, p: dict, n_heads: int, n_kv_heads: int, positions: np.ndarray) -> np.ndarray:
    batch, length, _ = u.shape

    def heads(t: np.ndarray, count: int) -> np.ndarray:  # (B, L, count*d) -> (B, count, L, d)
        return t.reshape(batch, length, count, -1).transpose(0, 2, 1, 3)

    q = _rope(heads(u @ p["w_q"], n_heads), positions)
    k = _rope(heads(u @ p["w_k"], n_kv_heads), positions)
    v = heads(u @ p["w_v"], n_kv_heads)
    group = n_heads // n_kv_heads  # query heads h*group .. h*group + group - 1 share kv head h
    k, v = np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = scores + np.triu(np.full((length, length), -np.inf), k=1)  # by row: query i sees keys 0..i
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, -1) @ p["w_o"]


BLOCK = ("attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down")


def _block(x: np.ndarray, p: dict, n_heads: int, n_kv_heads: int, positions: np.ndarray, eps: float) -> np.ndarray:
    # llama_block: h = x + attn(rms_norm(x)), out = h + swiglu(rms_norm(h)).
    h = x + _attention(_rms_norm(x, p["attn_norm"], eps), p, n_heads, n_kv_heads, positions)
    u = _rms_norm(h, p["ffn_norm"], eps)
    return h + (_silu(u @ p["w_gate"]) * (u @ p["w_up"])) @ p["w_down"]


def llama_next_token_logits(token_ids: np.ndarray, params: dict, n_heads: int, n_kv_heads: int,
                            eps: float) -> np.ndarray:
    """Reference: embed, N blocks at positions 0..L-1, the final RMSNorm, the untied output head on the last row."""
    positions = np.arange(token_ids.shape[1])
    stream = params["tok_embed"][token_ids]  # (B, L, D); no position vector: RoPE works inside attention
    for layer in range(params["w_q"].shape[0]):
        stream = _block(stream, {key: params[key][layer] for key in BLOCK}, n_heads, n_kv_heads, positions, eps)
    return _rms_norm(stream[:, -1], params["norm"], eps) @ params["w_out"]
