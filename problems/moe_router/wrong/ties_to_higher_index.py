import numpy as np


def moe_router(x, w_router, k):
    scores = x @ w_router
    experts = np.argsort(scores, axis=-1, kind="stable")[:, ::-1][:, :k]  # equal scores: the higher index first
    chosen = np.take_along_axis(scores, experts, axis=-1)
    weights = np.exp(chosen - chosen.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True), experts
