import numpy as np


def attend_with_kv_cache(q_t, k_cache, v_cache, k_t, v_t):
    keys = np.concatenate([k_cache, k_t], axis=-2)
    values = np.concatenate([v_cache, v_t], axis=-2)
    d = q_t.shape[-1]
    scores = q_t @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    # axis=-2, as for the (queries, keys) matrix in a textbook with keys as rows.
    scores = scores - scores.max(axis=-2, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-2, keepdims=True)
    return weights @ values
