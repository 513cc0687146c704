import numpy as np


def rolling_buffer_attention(q, k_buffer, v_buffer, pos, window):
    # Only the positions before pos: the query's own key and value are left out.
    keep = np.array([(pos - p) % window != 0 for p in range(window)]) if pos >= window else np.arange(window) < pos
    k, v = k_buffer[:, keep], v_buffer[:, keep]
    scores = np.einsum("bhd,bnhd->bhn", q, k) / np.sqrt(q.shape[-1])
    with np.errstate(invalid="ignore"):
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True, initial=-np.inf))
        weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("bhn,bnhd->bhd", weights, v)
