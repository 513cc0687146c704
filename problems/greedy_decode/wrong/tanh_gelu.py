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


def _attention(x, w_q, w_k, w_v, w_o, n_heads: int, causal: bool) -> np.ndarray:
    batch, length, width = x.shape
    d_head = width // n_heads

    def split(t):  # (B, L, D) -> (B, L, H, d) -> (B, H, L, d)
        return t.reshape(batch, length, n_heads, d_head).transpose(0, 2, 1, 3)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)  # (B, H, L, L)
    if causal:
        scores = scores + np.triu(np.full((length, length), -np.inf), k=1)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    heads = weights @ v  # (B, H, L, d)
    return heads.transpose(0, 2, 1, 3).reshape(batch, length, width) @ w_o


def _block(x, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2,
           n_heads: int, causal: bool) -> np.ndarray:
    # One pre-norm block; attention builds its own Q, K, V from the stream it is given.
    h = x + _attention(_layer_norm(x, ln1_gamma, ln1_beta), w_q, w_k, w_v, w_o, n_heads, causal)
    return h + _gelu(_layer_norm(h, ln2_gamma, ln2_beta) @ w1 + b1) @ w2 + b2


NAMES = ("w_token_embed", "w_pos_embed", "ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o",
         "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2", "ln_gamma", "ln_beta", "w_unembed")


def _next_token_logits(ids: np.ndarray, p: dict, n_heads: int) -> np.ndarray:
    # Track 2's gpt_next_token_logits: the whole causal stack over the whole sequence, last position read.
    stream = p["w_token_embed"][ids] + p["w_pos_embed"][: ids.shape[1]]  # (B, L, D)
    stacked = [p[name] for name in NAMES[2:14]]
    for layer in range(p["w_q"].shape[0]):
        stream = _block(stream, *(weights[layer] for weights in stacked), n_heads, True)
    return _layer_norm(stream[:, -1], p["ln_gamma"], p["ln_beta"]) @ p["w_unembed"]  # (B, V)


def greedy_decode(prompt_ids: np.ndarray, params: dict, n_heads: int, n_new: int) -> np.ndarray:
    """Reference: n_new greedy steps, each rerunning the model on everything so far; never writes to its inputs."""
    ids = np.array(prompt_ids, dtype=np.int64)  # a copy: the tokens are appended to it, never to the prompt
    for _ in range(n_new):
        logits = _next_token_logits(ids, params, n_heads)
        chosen = np.argmax(logits, axis=-1)  # the first index of each row's maximum: ties go to the lowest id
        ids = np.concatenate([ids, chosen[:, None].astype(np.int64)], axis=1)
    return ids
