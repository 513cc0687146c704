import numpy as np


def _split_heads(t: np.ndarray, n_heads: int) -> np.ndarray:
    # (B, L, D) -> (B, L, H, d) -> (B, H, L, d); works for any length L.
    batch, length, width = t.shape
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def _merge_heads(t: np.ndarray) -> np.ndarray:
    batch, n_heads, length, d_head = t.shape
    return t.transpose(0, 2, 1, 3).reshape(batch, length, n_heads * d_head)


def cross_attention(
    x: np.ndarray,
    context: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    n_heads: int,
) -> np.ndarray:
    """Reference implementation; never writes to its inputs."""
    d_head = x.shape[-1] // n_heads
    q = _split_heads(x @ w_q, n_heads)  # (B, H, Lq, d)
    k = _split_heads(context @ w_k, n_heads)  # (B, H, Lk, d)
    v = _split_heads(context @ w_v, n_heads)  # (B, H, Lk, d)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)  # (B, H, Lq, Lk)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.asarray(_merge_heads(weights @ v) @ w_o, dtype=np.float64)
