import numpy as np


def attend_with_kv_cache(q_t, k_cache, v_cache, k_t, v_t):
    # Only the cache is attended to: the new token's own key and value are never used.
    d = q_t.shape[-1]
    scores = q_t @ np.swapaxes(k_cache, -1, -2) / np.sqrt(d)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v_cache
