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
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head) + mask
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


# --- The ViT around the block: track 2's vit_forward with one encoder layer. ---

BLOCK = ("ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2")


def _image_to_patches(images, p):
    batch, height, width, channels = images.shape  # (B, H, W, C) -> (B, N, p*p*C), row-major over the grid
    grid = images.reshape(batch, height // p, p, width // p, p, channels).transpose(0, 1, 3, 2, 4, 5)
    return grid.reshape(batch, (height // p) * (width // p), p * p * channels)


def _loss_and_grads(images, labels, params, patch_size, n_heads):
    """The mean cross-entropy of the one-block ViT's logits, and its gradient for every weight, by name."""
    block = {name: params[name][0] for name in BLOCK}  # the only layer, without its layer axis
    patches = _image_to_patches(images, patch_size)
    batch, n_patches, _ = patches.shape
    width = params["w_patch"].shape[1]
    cls = np.broadcast_to(params["cls_token"], (batch, 1, width))
    stream = np.concatenate([cls, patches @ params["w_patch"] + params["b_patch"]], axis=1) + params["pos_embed"]
    no_mask = np.zeros((n_patches + 1, n_patches + 1))  # the encoder is bidirectional
    ln1 = _layer_norm(stream, block["ln1_gamma"], block["ln1_beta"])
    h = stream + _attention_forward(ln1, block, n_heads, no_mask)
    ln2 = _layer_norm(h, block["ln2_gamma"], block["ln2_beta"])
    pre = ln2 @ block["w1"] + block["b1"]
    out = h + (0.5 * pre * (1.0 + _erf(pre / np.sqrt(2.0)))) @ block["w2"] + block["b2"]
    state = out[:, 0]  # the class token's final state, (B, D)
    pooled = _layer_norm(state, params["ln_gamma"], params["ln_beta"])
    logits = pooled @ params["w_head"] + params["b_head"]

    rows, classes = np.arange(batch), labels.astype(np.int64)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_sums = np.log(np.exp(shifted).sum(axis=1))
    loss = float(np.mean(log_sums - shifted[rows, classes]))
    grad_logits = np.exp(shifted - log_sums[:, None])
    grad_logits[rows, classes] -= 1.0
    grad_logits /= batch  # the loss is a mean over the batch

    grads = {"w_head": pooled.T @ grad_logits, "b_head": grad_logits.sum(axis=0)}
    grad_state, grads["ln_gamma"], grads["ln_beta"] = _layer_norm_backward(state, params["ln_gamma"],
                                                                           grad_logits @ params["w_head"].T)
    grad_out = np.zeros_like(out)
    grad_out[:, 0] = grad_state  # only the class token is read: every patch's output gets no gradient

    # Back through the block (out = h + FFN(LN2(h)), h = x + MHA(LN1(x))), as pre_ln_block_backward.
    grad_ln2, ffn = _feed_forward_backward(ln2, block, grad_out)
    grad_h_ffn, grad_ln2_gamma, grad_ln2_beta = _layer_norm_backward(h, block["ln2_gamma"], grad_ln2)
    grad_h = grad_out + grad_h_ffn
    grad_ln1, attention = _attention_backward(ln1, block, n_heads, no_mask, grad_h)
    grad_stream_attention, grad_ln1_gamma, grad_ln1_beta = _layer_norm_backward(stream, block["ln1_gamma"], grad_ln1)
    grad_stream = grad_h + grad_stream_attention
    block_grads = {"ln1_gamma": grad_ln1_gamma, "ln1_beta": grad_ln1_beta, **attention,
                   "ln2_gamma": grad_ln2_gamma, "ln2_beta": grad_ln2_beta, **ffn}
    grads |= {name: block_grads[name][None] for name in BLOCK}  # the layer axis back

    # The stream was [cls; patch tokens] + pos_embed: the table is shared by the batch, the class
    # token by the batch too (slot 0), and the patch projection by every patch of every image.
    grads["pos_embed"] = grad_stream.sum(axis=0, keepdims=True)
    grads["cls_token"] = grad_stream[:, :1].sum(axis=0, keepdims=True)
    grad_tokens = grad_stream[:, 1:]
    grads["w_patch"] = _rows(patches).T @ _rows(grad_tokens)
    grads["b_patch"] = _rows(grad_tokens).sum(axis=0)
    return loss, grads


def vit_train_steps(images, labels, params, patch_size, n_heads, lr, steps):
    """Reference: full-batch gradient descent on every weight; the loss before each step."""
    # Self-contained (it also builds the expected outputs); a student may use their own pieces.
    weights = dict(params)  # new arrays are bound below; the caller's are never written
    losses = np.empty(steps)
    for step in range(steps):
        losses[step], grads = _loss_and_grads(images, labels, weights, patch_size, n_heads)
        weights = {name: value - lr * grads[name] for name, value in weights.items()}
    return losses
