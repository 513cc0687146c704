import numpy as np

EPS = 1e-5  # track 2's pre_ln_block: biased variance, eps 1e-5


def _erf(x: np.ndarray) -> np.ndarray:
    # NumPy has no erf. For |x| < 2 the series erf(x) = 2/sqrt(pi) e^(-x^2) sum_n 2^n x^(2n+1) / (2n+1)!!,
    # whose terms are all positive (no cancellation); for |x| >= 2 the continued fraction of erfc,
    # evaluated from its tail. Both agree with math.erf to about 1e-15.
    a = np.minimum(np.abs(x), 40.0)
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


def _rows(a: np.ndarray) -> np.ndarray:
    return a.reshape(-1, a.shape[-1])


def _split(t: np.ndarray, n_heads: int) -> np.ndarray:
    batch, length, width = t.shape  # (B, L, D) -> (B, H, L, d)
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def _merge(t: np.ndarray) -> np.ndarray:
    batch, n_heads, length, d_head = t.shape  # (B, H, L, d) -> (B, L, D)
    return t.transpose(0, 2, 1, 3).reshape(batch, length, n_heads * d_head)


def _layer_norm_backward(u, gamma, grad):
    """Forward and backward of LN(u) = gamma * u_hat + beta: (grad_u, grad_gamma, grad_beta)."""
    centred = u - u.mean(axis=-1, keepdims=True)
    inv_std = 1.0 / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + EPS)
    u_hat = centred * inv_std
    g = grad * gamma
    grad_u = inv_std * (g - g.mean(axis=-1, keepdims=True) - u_hat * np.mean(g * u_hat, axis=-1, keepdims=True))
    return grad_u, _rows(grad * u_hat).sum(axis=0), _rows(grad).sum(axis=0)


def _layer_norm(u, gamma, beta):
    centred = u - u.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + EPS) * gamma + beta


def _attention_forward(u, p, n_heads, mask):
    d_head = u.shape[-1] // n_heads
    q, k, v = (_split(u @ p[name], n_heads) for name in ("w_q", "w_k", "w_v"))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head) + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return _merge(weights @ v) @ p["w_o"]


def _attention_backward(u, p, n_heads, mask, grad_out):
    """multi_head_attention(u) and its backward: (grad_u, {w_q, w_k, w_v, w_o gradients})."""
    d_head = u.shape[-1] // n_heads
    q, k, v = (_split(u @ p[name], n_heads) for name in ("w_q", "w_k", "w_v"))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)  # the weights again, without the mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    merged = _merge(weights @ v)

    grad_heads = _split(grad_out @ p["w_o"].T, n_heads)
    grad_weights = grad_heads @ np.swapaxes(v, -1, -2)
    grad_scores = weights * (grad_weights - np.sum(grad_weights * weights, axis=-1, keepdims=True)) / np.sqrt(d_head)
    grad_q = _merge(grad_scores @ k)
    grad_k = _merge(np.swapaxes(grad_scores, -1, -2) @ q)
    grad_v = _merge(np.swapaxes(weights, -1, -2) @ grad_heads)
    grad_u = grad_q @ p["w_q"].T + grad_k @ p["w_k"].T + grad_v @ p["w_v"].T
    grads = {"w_q": _rows(u).T @ _rows(grad_q), "w_k": _rows(u).T @ _rows(grad_k),
             "w_v": _rows(u).T @ _rows(grad_v), "w_o": _rows(merged).T @ _rows(grad_out)}
    return grad_u, grads


def _feed_forward_backward(u, p, grad_out):
    """FFN(u) = GELU(u w1 + b1) w2 + b2 and its backward: (grad_u, {w1, b1, w2, b2 gradients})."""
    pre = u @ p["w1"] + p["b1"]
    cdf = 0.5 * (1.0 + _erf(pre / np.sqrt(2.0)))
    grad_act = grad_out @ p["w2"].T
    grad_pre = grad_act * (cdf + pre * np.exp(-0.5 * pre * pre) / np.sqrt(2.0 * np.pi))  # GELU' = Phi + z phi
    grads = {"w1": _rows(u).T @ _rows(grad_pre), "b1": _rows(grad_pre).sum(axis=0),
             "w2": _rows(pre * cdf).T @ _rows(grad_out), "b2": _rows(grad_out).sum(axis=0)}
    return grad_pre @ p["w1"].T, grads


def pre_ln_block_backward(x, params, n_heads, causal, grad_out):
    # Self-contained (it also builds the expected outputs); a student may use their own
    # feed_forward_backward, layer_norm_affine_backward and multi_head_attention_backward.
    length = x.shape[1]
    mask = np.triu(np.full((length, length), -np.inf), k=1) if causal else np.zeros((length, length))
    ln1 = _layer_norm(x, params["ln1_gamma"], params["ln1_beta"])
    h = x + _attention_forward(ln1, params, n_heads, mask)

    # out = h + FFN(LN2(h)): grad_out reaches h directly and through the feed-forward.
    grad_ln2, ffn = _feed_forward_backward(_layer_norm(h, params["ln2_gamma"], params["ln2_beta"]), params, grad_out)
    grad_h_ffn, grad_ln2_gamma, grad_ln2_beta = _layer_norm_backward(h, params["ln2_gamma"], grad_ln2)
    grad_h = grad_out + grad_h_ffn

    # h = x + MHA(LN1(x)): the same two paths again.
    grad_ln1, attention = _attention_backward(ln1, params, n_heads, mask, grad_h)
    grad_x_attention, grad_ln1_gamma, grad_ln1_beta = _layer_norm_backward(x, params["ln1_gamma"], grad_ln1)
    return {"x": grad_h + grad_x_attention,
            "ln1_gamma": grad_ln1_gamma, "ln1_beta": grad_ln1_beta, **attention,
            "ln2_gamma": grad_ln2_gamma, "ln2_beta": grad_ln2_beta, **ffn}
