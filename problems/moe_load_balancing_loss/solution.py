import numpy as np


def moe_load_balancing_loss(router_logits: np.ndarray, k: int) -> np.ndarray:
    """Reference: E * sum_e f_e * P_e, f_e the share of the T*k top-k assignments, P_e the mean probability."""
    tokens, experts = router_logits.shape
    # The top-k choice of moe_router: highest first, equal logits in index order.
    chosen = np.argsort(-router_logits, axis=-1, kind="stable")[:, :k]
    share = np.bincount(chosen.ravel(), minlength=experts) / (tokens * k)  # f, sums to 1
    shifted = np.exp(router_logits - router_logits.max(axis=-1, keepdims=True))
    probability = (shifted / shifted.sum(axis=-1, keepdims=True)).mean(axis=0)  # P, sums to 1
    return np.asarray(experts * np.dot(share, probability), dtype=np.float64)
