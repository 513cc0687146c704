import numpy as np


def rolling_buffer_attention(q, k_buffer, v_buffer, pos, window):
    # All window slots, even before pos reaches window - 1: slots never written are attended to.
    scores = np.einsum("bhd,bnhd->bhn", q, k_buffer) / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("bhn,bnhd->bhd", weights, v_buffer)
