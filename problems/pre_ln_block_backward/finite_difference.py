"""Central finite-difference estimates of the pre-norm block's gradients, from the forward alone.

L = sum(grad_out * pre_ln_block(x, params, n_heads, causal)) has dL/dOut = grad_out, so its gradients
with respect to x and every weight are the answer. Each entry is nudged by +h and -h; only small
cases are marked for this check. The forward is track 2's pre_ln_block.
"""

import math

import numpy as np

STEP = 1e-5
EPS = 1e-5


def _layer_norm(u, gamma, beta):
    centred = u - u.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + EPS) * gamma + beta


def _forward(x, p, n_heads, causal):
    batch, length, width = x.shape
    d_head = width // n_heads

    def split(t):
        return t.reshape(batch, length, n_heads, d_head).transpose(0, 2, 1, 3)

    u = _layer_norm(x, p["ln1_gamma"], p["ln1_beta"])
    q, k, v = split(u @ p["w_q"]), split(u @ p["w_k"]), split(u @ p["w_v"])
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)
    if causal:
        scores = scores + np.triu(np.full((length, length), -np.inf), k=1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    h = x + (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, width) @ p["w_o"]
    pre = _layer_norm(h, p["ln2_gamma"], p["ln2_beta"]) @ p["w1"] + p["b1"]
    erf = np.vectorize(math.erf)(pre / math.sqrt(2.0))
    return h + (0.5 * pre * (1.0 + erf)) @ p["w2"] + p["b2"]


def _numeric(loss, value):
    estimate = np.zeros(value.shape)
    for index in np.ndindex(value.shape):
        step = np.zeros(value.shape)
        step[index] = STEP
        estimate[index] = (loss(value + step) - loss(value - step)) / (2 * STEP)
    return estimate


def pre_ln_block_backward(x, params, n_heads, causal, grad_out):
    arrays = {"x": x, **params}

    def loss_with(name):
        def loss(value):
            args = arrays | {name: value}
            weights = {key: args[key] for key in params}
            return float(np.sum(grad_out * _forward(args["x"], weights, n_heads, causal)))
        return loss

    return {name: _numeric(loss_with(name), value) for name, value in arrays.items()}
