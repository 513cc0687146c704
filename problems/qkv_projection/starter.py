import numpy as np


def qkv_projection(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    """Project every token to its query, key and value vectors.

    Args:
        x: float64 array of shape (B, L, D), one row per token.
        w_q: float64 array of shape (D, d_k), the query projection.
        w_k: float64 array of shape (D, d_k), the key projection.
        w_v: float64 array of shape (D, d_k), the value projection.

    Returns:
        A new float64 array of shape (3, B, L, d_k): out[0] = x @ w_q,
        out[1] = x @ w_k and out[2] = x @ w_v. No input may be modified.
    """
    raise NotImplementedError("project x three times and stack the results")
