import numpy as np


def _silu(z: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(z))  # in (0, 1]: no overflow on either side
    return z * np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def mixture_of_experts(x: np.ndarray, w_router: np.ndarray, w_gate: np.ndarray, w_up: np.ndarray,
                       w_down: np.ndarray, k: int) -> np.ndarray:
    """Reference: each token's k best experts (moe_router's rule), their SwiGLU outputs mixed by the
    softmax of their k scores; each expert runs once, on the tokens routed to it."""
    scores = x @ w_router  # (T, E)
    experts = np.argsort(-scores, axis=-1, kind="stable")[:, :k]  # (T, k), best first, ties to the lower index
    chosen = np.take_along_axis(scores, experts, axis=-1)
    weights = np.exp(chosen - chosen[:, :1])
    weights = weights / weights.sum(axis=-1, keepdims=True)  # (T, k)
    out = np.zeros_like(x, dtype=np.float64)
    for expert in np.unique(experts):
        tokens, slot = np.nonzero(experts == expert)  # a token lists an expert at most once
        u = x[tokens]
        hidden = _silu(u @ w_gate[expert]) * (u @ w_up[expert])
        out[tokens] += weights[tokens, slot][:, None] * (hidden @ w_down[expert])
    return out
