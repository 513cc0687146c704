import numpy as np


def silu(z):
    return z / (1.0 + np.exp(-z))


def mixture_of_experts(x, w_router, w_gate, w_up, w_down, k):
    scores = x @ w_router
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    chosen = np.take_along_axis(scores, top, axis=1)
    w = np.exp(chosen - chosen.max(axis=1, keepdims=True))
    w = w / w.sum(axis=1, keepdims=True)
    out = np.zeros_like(x)
    for j in range(k):
        # The j-th choice of every token, run through expert j.
        out += w[:, j:j + 1] * ((silu(x @ w_gate[j]) * (x @ w_up[j])) @ w_down[j])
    return out
