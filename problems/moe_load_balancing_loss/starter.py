import numpy as np


def moe_load_balancing_loss(router_logits: np.ndarray, k: int) -> np.ndarray:
    """The auxiliary load-balancing loss of Switch Transformer and Mixtral.

    Args:
        router_logits: float64 array (T, E), the router's scores of T tokens for E experts.
        k: a Python int, 1 <= k <= E: each token goes to its k highest-scoring experts
            (equal scores: the lower index first), as in moe_router.

    Returns:
        A float64 array of shape () (a 0-d array): E * sum_e f_e * P_e, where f_e is the
        fraction of the T * k assignments that went to expert e and P_e is the mean over the
        tokens of expert e's softmax probability (the softmax over all E logits of a token).
        The input is not modified.
    """
    raise NotImplementedError("count each expert's share of the top-k assignments, average the softmax, combine")
