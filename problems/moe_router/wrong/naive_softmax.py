import numpy as np


def moe_router(x, w_router, k):
    scores = x @ w_router
    experts = np.argsort(-scores, axis=-1, kind="stable")[:, :k]
    weights = np.exp(np.take_along_axis(scores, experts, axis=-1))
    return weights / weights.sum(axis=-1, keepdims=True), experts
