"""Central finite-difference estimates of multi-head attention's gradients, from the forward alone.

L = sum(grad_out * multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask)) has dL/dOut =
grad_out, so its gradients with respect to x and the four weights are the answer. Each entry is
nudged by +h and -h; only small cases are marked for this check.
"""

import numpy as np

STEP = 1e-5


def _forward(x, w_q, w_k, w_v, w_o, n_heads, mask):
    batch, length, width = x.shape
    d_head = width // n_heads

    def split(t):
        return t.reshape(batch, length, n_heads, d_head).transpose(0, 2, 1, 3)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head) + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, width) @ w_o


def _numeric(loss, value):
    estimate = np.zeros(value.shape)
    for index in np.ndindex(value.shape):
        step = np.zeros(value.shape)
        step[index] = STEP
        estimate[index] = (loss(value + step) - loss(value - step)) / (2 * STEP)
    return estimate


def multi_head_attention_backward(x, w_q, w_k, w_v, w_o, n_heads, mask, grad_out):
    arrays = {"x": x, "w_q": w_q, "w_k": w_k, "w_v": w_v, "w_o": w_o}

    def loss_with(name):
        def loss(value):
            args = arrays | {name: value}
            return float(np.sum(grad_out * _forward(args["x"], args["w_q"], args["w_k"], args["w_v"], args["w_o"],
                                                    n_heads, mask)))
        return loss

    return {name: _numeric(loss_with(name), value) for name, value in arrays.items()}
