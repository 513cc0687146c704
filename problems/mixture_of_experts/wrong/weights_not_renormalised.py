import numpy as np


def silu(z):
    return z * 0.5 * (1.0 + np.tanh(0.5 * z))


def mixture_of_experts(x, w_router, w_gate, w_up, w_down, k):
    scores = x @ w_router
    probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = probs / probs.sum(axis=-1, keepdims=True)
    top = np.argsort(-scores, axis=-1, kind="stable")[:, :k]
    out = np.zeros(x.shape)
    for t in range(x.shape[0]):
        for e in top[t]:
            h = silu(x[t] @ w_gate[e]) * (x[t] @ w_up[e])
            out[t] += probs[t, e] * (h @ w_down[e])
    return out
