import numpy as np


def moe_router(x: np.ndarray, w_router: np.ndarray, k: int) -> tuple:
    """Top-k routing of tokens to experts.

    Args:
        x: float64 array (T, D), one row per token.
        w_router: float64 array (D, E), the router's weights; the scores are x @ w_router, shape (T, E).
        k: a Python int, 1 <= k <= E.

    Returns:
        (weights, experts): experts an int64 array (T, k), each token's k highest-scoring experts in
        descending order of score (equal scores: lower index first); weights a float64 array (T, k),
        the softmax of those k scores, in the same order. The inputs are not modified.
    """
    raise NotImplementedError("score, pick the k best per row, softmax over the picked scores")
