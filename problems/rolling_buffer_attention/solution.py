import numpy as np


def rolling_buffer_attention(q: np.ndarray, k_buffer: np.ndarray, v_buffer: np.ndarray, pos: int,
                             window: int) -> np.ndarray:
    """Reference: one decoding step over Mistral's rolling KV cache. Position p lives in slot p % window,
    so once pos + 1 >= window every slot holds one of the last window positions; before that only the
    first pos + 1 slots are written. Attention does not depend on the order of its keys."""
    filled = min(pos + 1, window)
    k, v = k_buffer[:, :filled], v_buffer[:, :filled]  # (B, n, H, d)
    scores = np.einsum("bhd,bnhd->bhn", q, k) / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("bhn,bnhd->bhd", weights, v)
