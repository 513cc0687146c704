import numpy as np


def multi_head_attention(
    x: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    n_heads: int,
    mask: np.ndarray | None = None,
) -> np.ndarray:
    """Multi-head self-attention: merge(softmax(Q K^T / sqrt(d) + mask) V) @ w_o.

    Args:
        x: float64 array of shape (B, L, D), one row per token.
        w_q, w_k, w_v: float64 arrays of shape (D, D), the query, key and value
            projections; their outputs are split into n_heads heads of width
            d = D // n_heads (reshape to (B, L, H, d), then move the head axis
            in front of the sequence axis: (B, H, L, d)).
        w_o: float64 array of shape (D, D), applied after the heads are merged
            back into (B, L, D).
        n_heads: a Python int H that divides D.
        mask: optional float64 additive mask broadcastable to (B, H, L, L):
            0 where a query may attend to a key, -inf where it may not.

    Returns:
        A new float64 array of shape (B, L, D). No input may be modified.
    """
    raise NotImplementedError("project, split into heads, attend per head, merge, project")
