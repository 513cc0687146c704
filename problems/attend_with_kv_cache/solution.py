import numpy as np


def attend_with_kv_cache(
    q_t: np.ndarray,
    k_cache: np.ndarray,
    v_cache: np.ndarray,
    k_t: np.ndarray,
    v_t: np.ndarray,
) -> np.ndarray:
    """Reference: append the new key and value, then one row of attention over T + 1 positions."""
    keys = np.concatenate([k_cache, k_t], axis=-2)  # (B, H, T + 1, d), a new array
    values = np.concatenate([v_cache, v_t], axis=-2)  # (B, H, T + 1, d)
    d = q_t.shape[-1]
    scores = q_t @ np.swapaxes(keys, -1, -2) / np.sqrt(d)  # (B, H, 1, T + 1)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.asarray(weights @ values, dtype=np.float64)  # (B, H, 1, d)
