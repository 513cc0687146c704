import numpy as np


def silu(z):
    return z / (1.0 + np.exp(-z))


def mixture_of_experts(x, w_router, w_gate, w_up, w_down, k):
    scores = x @ w_router
    top = np.argsort(scores, axis=1)[:, ::-1][:, :k]
    chosen = np.take_along_axis(scores, top, axis=1)
    w = np.exp(chosen - chosen[:, :1])
    w = w / w.sum(axis=1, keepdims=True)
    out = np.zeros_like(x)
    for t in range(x.shape[0]):
        for j, e in enumerate(top[t]):
            out[t] += w[t, j] * ((silu(x[t] @ w_gate[e]) * (x[t] @ w_up[e])) @ w_down[e])
    return out
