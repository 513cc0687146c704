import numpy as np

EPS = 1e-5
BLOCK = ("ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2")


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * gamma + beta


def _erf(x: np.ndarray) -> np.ndarray:
    # The series for |x| < 2 and the continued fraction of erfc beyond, as in gpt_next_token_logits.
    a = np.abs(x)
    out = np.empty_like(a)
    small = a < 2.0
    s = a[small]
    term, total, ratio = s.copy(), s.copy(), 2.0 * s * s
    for n in range(1, 30):
        term *= ratio / (2 * n + 1)
        total += term
    out[small] = 2.0 / np.sqrt(np.pi) * np.exp(-s * s) * total
    b = a[~small]
    tail = np.zeros_like(b)
    for k in range(40, 0, -1):
        tail = (k / 2.0) / (b + tail)
    out[~small] = 1.0 - np.exp(-b * b) / np.sqrt(np.pi) / (b + tail)
    return np.sign(x) * out


def _block(x: np.ndarray, w: dict, layer: int, n_heads: int) -> np.ndarray:
    batch, length, width = x.shape
    d_head = width // n_heads

    def split(t):  # (B, L, D) -> (B, H, L, d)
        return t.reshape(batch, length, n_heads, d_head).transpose(0, 2, 1, 3)

    h = _layer_norm(x, w["ln1_gamma"][layer], w["ln1_beta"][layer])
    q, k, v = split(h @ w["w_q"][layer]), split(h @ w["w_k"][layer]), split(h @ w["w_v"][layer])
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head) + np.triu(np.full((length, length), -np.inf), k=1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    x = x + (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, width) @ w["w_o"][layer]
    h = _layer_norm(x, w["ln2_gamma"][layer], w["ln2_beta"][layer]) @ w["w1"][layer] + w["b1"][layer]
    return x + (0.5 * h * (1.0 + _erf(h / np.sqrt(2.0)))) @ w["w2"][layer] + w["b2"][layer]


def _streams(ids: np.ndarray, w: dict, n_heads: int) -> list[np.ndarray]:
    """The residual stream at every layer boundary, each (1, L, D): after the embeddings, after each block."""
    stream = (w["w_token_embed"][ids] + w["w_pos_embed"][: ids.shape[0]])[None]
    streams = [stream]
    for layer in range(w["w_q"].shape[0]):
        stream = _block(stream, w, layer, n_heads)
        streams.append(stream)
    return streams


def _logit_difference(stream: np.ndarray, start: int, w: dict, n_heads: int, answers: np.ndarray) -> np.ndarray:
    """Run the blocks from boundary ``start`` on, read the last position: one difference per sequence."""
    for layer in range(start, w["w_q"].shape[0]):
        stream = _block(stream, w, layer, n_heads)
    logits = _layer_norm(stream[:, -1], w["ln_gamma"], w["ln_beta"]) @ w["w_unembed"]
    return logits[:, answers[0]] - logits[:, answers[1]]


def activation_patching(token_ids_clean: np.ndarray, token_ids_corrupt: np.ndarray, params: dict,
                        n_heads: int, answer_ids: np.ndarray) -> np.ndarray:
    clean = _streams(token_ids_clean, params, n_heads)
    corrupt = _streams(token_ids_corrupt, params, n_heads)
    layers, length = len(clean) - 1, token_ids_clean.shape[0]
    clean_diff = _logit_difference(clean[-1], layers, params, n_heads, answer_ids)[0]
    corrupt_diff = _logit_difference(corrupt[-1], layers, params, n_heads, answer_ids)[0]
    result = np.empty((layers + 1, length))
    for boundary in range(layers + 1):
        # One sequence per position: the corrupt stream with that position's vector from the clean run.
        patched = np.repeat(corrupt[boundary], length, axis=0)  # (L, L, D)
        positions = np.arange(length)
        patched[positions, positions] = clean[boundary][0, positions]
        diffs = _logit_difference(patched, boundary, params, n_heads, answer_ids)
        result[boundary] = diffs  # the patched run's logit difference, not normalised
    return result
