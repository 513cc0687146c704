import numpy as np


def grouped_query_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray,
                            mask: np.ndarray | None = None) -> np.ndarray:
    """Reference: query head h attends with key/value head h // (H / H_kv)."""
    group = q.shape[1] // k.shape[1]
    # np.repeat puts each key/value head `group` times in a row: heads 0..group-1 of the
    # queries meet kv head 0, the next `group` meet kv head 1, and so on.
    keys = np.repeat(k, group, axis=1)
    values = np.repeat(v, group, axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask
    exp = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = exp / exp.sum(axis=-1, keepdims=True)
    return np.asarray(weights @ values, dtype=np.float64)
