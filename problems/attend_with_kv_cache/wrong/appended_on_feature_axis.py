import numpy as np


def attend_with_kv_cache(q_t, k_cache, v_cache, k_t, v_t):
    keys = np.concatenate([k_cache, k_t], axis=-1)  # the last axis: features, not positions
    values = np.concatenate([v_cache, v_t], axis=-1)
    d = q_t.shape[-1]
    scores = q_t @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
