import numpy as np

# Your own accepted solutions of the earlier problems can be imported here:
# from solved import moe_router, swiglu


def mixture_of_experts(x: np.ndarray, w_router: np.ndarray, w_gate: np.ndarray, w_up: np.ndarray,
                       w_down: np.ndarray, k: int) -> np.ndarray:
    """A sparse mixture-of-experts feed-forward layer, as in Mixtral.

    Args:
        x: float64 array (T, D), one row per token.
        w_router: float64 array (D, E), the router; the scores are x @ w_router.
        w_gate, w_up: float64 arrays (E, D, F); w_down: float64 array (E, F, D): expert e is the
            SwiGLU (silu(x @ w_gate[e]) * (x @ w_up[e])) @ w_down[e].
        k: a Python int, 1 <= k <= E.

    Returns:
        A new float64 array (T, D): for each token, the sum over its k highest-scoring experts
        (moe_router's choice: equal scores, the lower index first) of the softmax of their k
        scores times that expert's output. The inputs are not modified.
    """
    raise NotImplementedError("route each token to its k experts, run each expert's SwiGLU, mix by the weights")
