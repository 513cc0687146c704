import numpy as np


def attend_with_kv_cache(q_t, k_cache, v_cache, k_t, v_t):
    keys = np.concatenate([k_cache, k_t], axis=-2)
    values = np.concatenate([v_cache, v_t], axis=-2)
    d_k = keys.shape[2]  # (B, H, T + 1, d): index 2 is the number of positions attended, T + 1
    scores = q_t @ np.swapaxes(keys, -1, -2) / np.sqrt(d_k)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
