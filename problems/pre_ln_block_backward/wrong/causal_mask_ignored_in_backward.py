# Known wrong: the forward is masked, the attention backward is not. The other steps use the
# reference's pieces, as a student's own accepted ones would be.
import numpy as np
from solved import feed_forward_backward, layer_norm_affine_backward, multi_head_attention_backward

EPS = 1e-5  # track 2's pre_ln_block: biased variance, eps 1e-5


def _layer_norm(u, gamma, beta):
    centred = u - u.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + EPS) * gamma + beta


def _attention(u, p, n_heads, mask):
    batch, length, width = u.shape
    d_head = width // n_heads

    def split(t):  # (B, L, D) -> (B, H, L, d)
        return t.reshape(batch, length, n_heads, d_head).transpose(0, 2, 1, 3)

    q, k, v = (split(u @ p[name]) for name in ("w_q", "w_k", "w_v"))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head) + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, width) @ p["w_o"]


def pre_ln_block_backward(x, params, n_heads, causal, grad_out):
    p, length = params, x.shape[1]
    mask = np.triu(np.full((length, length), -np.inf), k=1) if causal else np.zeros((length, length))
    ln1 = _layer_norm(x, p["ln1_gamma"], p["ln1_beta"])
    h = x + _attention(ln1, p, n_heads, mask)
    ln2 = _layer_norm(h, p["ln2_gamma"], p["ln2_beta"])

    grad_ln2, grad_w1, grad_b1, grad_w2, grad_b2 = feed_forward_backward(ln2, p["w1"], p["b1"], p["w2"], p["b2"],
                                                                         grad_out)
    grad_h_ffn, grad_ln2_gamma, grad_ln2_beta = layer_norm_affine_backward(h, p["ln2_gamma"], grad_ln2, EPS)
    grad_h = grad_out + grad_h_ffn
    attention = multi_head_attention_backward(ln1, p["w_q"], p["w_k"], p["w_v"], p["w_o"], n_heads, np.zeros((length, length)),
                                              grad_h)  # the mistake: no mask
    grad_x_attention, grad_ln1_gamma, grad_ln1_beta = layer_norm_affine_backward(x, p["ln1_gamma"], attention["x"],
                                                                                 EPS)
    grad_x = grad_h + grad_x_attention
    return {"x": grad_x, "ln1_gamma": grad_ln1_gamma, "ln1_beta": grad_ln1_beta,
            "w_q": attention["w_q"], "w_k": attention["w_k"], "w_v": attention["w_v"], "w_o": attention["w_o"],
            "ln2_gamma": grad_ln2_gamma, "ln2_beta": grad_ln2_beta,
            "w1": grad_w1, "b1": grad_b1, "w2": grad_w2, "b2": grad_b2}
