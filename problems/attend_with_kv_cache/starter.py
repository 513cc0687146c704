import numpy as np


def attend_with_kv_cache(
    q_t: np.ndarray,
    k_cache: np.ndarray,
    v_cache: np.ndarray,
    k_t: np.ndarray,
    v_t: np.ndarray,
) -> np.ndarray:
    """One decoding step of causal self-attention with a key/value cache.

    Args:
        q_t: float64 array of shape (B, H, 1, d), the new token's query.
        k_cache, v_cache: float64 arrays of shape (B, H, T, d), T >= 1, the keys
            and values of the T tokens before it.
        k_t, v_t: float64 arrays of shape (B, H, 1, d), the new token's key and
            value.

    Returns:
        A new float64 array of shape (B, H, 1, d): softmax(q K^T / sqrt(d)) V,
        where K and V hold the T cached positions and the new token itself.
        No input may be modified.
    """
    raise NotImplementedError("attend from the new query to the cached positions and to itself")
