import numpy as np


def moe_router(x: np.ndarray, w_router: np.ndarray, k: int) -> tuple:
    """Reference: the k best experts per token (ties to the lower index) and the softmax of their scores."""
    scores = x @ w_router
    # A stable sort of the negated scores: highest first, equal scores in index order.
    experts = np.argsort(-scores, axis=-1, kind="stable")[:, :k]
    chosen = np.take_along_axis(scores, experts, axis=-1)
    weights = np.exp(chosen - chosen[:, :1])  # the first is each row's maximum
    return weights / weights.sum(axis=-1, keepdims=True), experts
