import numpy as np


def attend_with_kv_cache(q_t, k_cache, v_cache, k_t, v_t):
    keys = np.concatenate([k_cache, k_t], axis=-2)
    values = np.concatenate([v_cache, v_t], axis=-2)
    d = q_t.shape[-1]
    scores = q_t @ np.swapaxes(keys, -1, -2) / np.sqrt(d)  # (B, H, 1, T + 1)
    # The usual causal mask, built for the score matrix at hand, (1, T + 1).
    n_q, n_k = scores.shape[-2:]
    scores = scores + np.triu(np.full((n_q, n_k), -np.inf), k=1)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ values
