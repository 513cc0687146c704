import numpy as np


def moe_router(x, w_router, k):
    scores = x @ w_router
    experts = np.zeros((len(x), k))
    weights = np.zeros((len(x), k))
    for t, row in enumerate(scores):
        best = np.argsort(-row, kind="stable")[:k]
        experts[t] = best
        chosen = np.exp(row[best] - row[best[0]])
        weights[t] = chosen / chosen.sum()
    return weights, experts
