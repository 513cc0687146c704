import numpy as np


def scaled_dot_product_attention(
    Q: np.ndarray,
    K: np.ndarray,
    V: np.ndarray,
    mask: np.ndarray | None = None,
) -> np.ndarray:
    """Attention: softmax(Q K^T / sqrt(d_k) + mask) V, with the softmax over keys.

    Args:
        Q: float64 array of shape (..., L_q, d_k).
        K: float64 array of shape (..., L_k, d_k).
        V: float64 array of shape (..., L_k, d_v).
        mask: optional float64 additive mask broadcastable to (..., L_q, L_k),
            holding 0 where attention is allowed and -inf where it is blocked.
            No row is fully blocked.

    Returns:
        A new float64 array of shape (..., L_q, d_v). No input may be modified.
    """
    raise NotImplementedError("compute scores, softmax over keys, then weight V")
