import numpy as np


def moe_router(x, w_router, k):
    scores = x @ w_router
    probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)
    experts = np.argsort(-scores, axis=-1, kind="stable")[:, :k]
    return np.take_along_axis(probs, experts, axis=-1), experts  # never renormalised over the k
