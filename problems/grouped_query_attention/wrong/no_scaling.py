import numpy as np


def grouped_query_attention(q, k, v, mask=None):
    group = q.shape[1] // k.shape[1]
    keys, values = np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)
    scores = q @ np.swapaxes(keys, -1, -2)
    if mask is not None:
        scores = scores + mask
    exp = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True) @ values
