import numpy as np

EPS = 1e-5


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    # Normalise every token over its D features, with the biased (1/D) variance.
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * gamma + beta


def _gelu(x: np.ndarray) -> np.ndarray:
    # GPT-2's tanh approximation, as in its original code: within about 1e-3 of the exact GELU.
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


class _Cache:
    """Every layer's keys and values of the positions processed so far, (B, H, total, d) each,
    filled from the left; ``size`` positions are valid."""

    def __init__(self, n_layers: int, batch: int, n_heads: int, total: int, d_head: int) -> None:
        self.keys = np.zeros((n_layers, batch, n_heads, total, d_head))
        self.values = np.zeros((n_layers, batch, n_heads, total, d_head))
        self.size = 0


def _attend(x: np.ndarray, p: dict, layer: int, n_heads: int, cache: _Cache) -> np.ndarray:
    # x holds T new positions, start .. start + T - 1; their keys and values join the cache, and
    # query i sees every cached position and the new ones up to itself (the causal mask, shifted).
    batch, count, width = x.shape
    d_head, start = width // n_heads, cache.size

    def split(t):  # (B, T, D) -> (B, H, T, d)
        return t.reshape(batch, count, n_heads, d_head).transpose(0, 2, 1, 3)

    end = start + count
    cache.keys[layer, :, :, start:end] = split(x @ p["w_k"][layer])
    cache.values[layer, :, :, start:end] = split(x @ p["w_v"][layer])
    q = split(x @ p["w_q"][layer])
    scores = q @ np.swapaxes(cache.keys[layer, :, :, :end], -1, -2) / np.sqrt(d_head)  # (B, H, T, end)
    if count > 1:  # a single new position may see every key there is
        scores = scores + np.triu(np.full((count, end), -np.inf), k=start + 1)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    heads = weights @ cache.values[layer, :, :, :end]  # (B, H, T, d)
    return heads.transpose(0, 2, 1, 3).reshape(batch, count, width) @ p["w_o"][layer]


def _run(ids: np.ndarray, p: dict, n_heads: int, cache: _Cache) -> np.ndarray:
    """The model over the T tokens ``ids`` (B, T) that follow the cached ones: the next token's logits (B, V)."""
    start = cache.size
    stream = p["w_token_embed"][ids] + p["w_pos_embed"][start : start + ids.shape[1]]
    for layer in range(p["w_q"].shape[0]):
        h = stream + _attend(_layer_norm(stream, p["ln1_gamma"][layer], p["ln1_beta"][layer]), p, layer, n_heads, cache)
        hidden = _gelu(_layer_norm(h, p["ln2_gamma"][layer], p["ln2_beta"][layer]) @ p["w1"][layer] + p["b1"][layer])
        stream = h + hidden @ p["w2"][layer] + p["b2"][layer]
    cache.size = start + ids.shape[1]
    return _layer_norm(stream[:, -1], p["ln_gamma"], p["ln_beta"]) @ p["w_unembed"]


def decode_with_kv_cache(prompt_ids: np.ndarray, params: dict, n_heads: int, n_new: int) -> np.ndarray:
    """Reference: the prompt in one causal pass that fills the cache, then one position per new token."""
    batch, length = prompt_ids.shape
    if n_new == 0:
        return np.array(prompt_ids, dtype=np.int64)
    n_layers, width, _ = params["w_q"].shape
    cache = _Cache(n_layers, batch, n_heads, length + n_new - 1, width // n_heads)
    out = np.empty((batch, length + n_new), dtype=np.int64)
    out[:, :length] = prompt_ids
    logits = _run(out[:, :length], params, n_heads, cache)
    for t in range(length, length + n_new):
        out[:, t] = np.argmax(logits, axis=-1)  # ties go to the lowest id
        if t + 1 < length + n_new:  # the last token chosen is never fed back
            logits = _run(out[:, t : t + 1], params, n_heads, cache)
    return out
