import numpy as np


def grouped_query_attention(q, k, v, mask=None):
    group = q.shape[1] // k.shape[1]
    # np.tile lays the kv heads out as 0, 1, ..., 0, 1, ...: query head h gets h % H_kv.
    keys = np.tile(k, (1, group, 1, 1))
    values = np.tile(v, (1, group, 1, 1))
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask
    exp = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True) @ values
