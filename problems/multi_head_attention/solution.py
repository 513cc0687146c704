import numpy as np


def _split_heads(t: np.ndarray, n_heads: int) -> np.ndarray:
    # (B, L, D) -> (B, L, H, d) -> (B, H, L, d): head h owns columns h*d .. (h+1)*d - 1.
    batch, length, width = t.shape
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def _merge_heads(t: np.ndarray) -> np.ndarray:
    # The inverse: (B, H, L, d) -> (B, L, H, d) -> (B, L, H*d).
    batch, n_heads, length, d_head = t.shape
    return t.transpose(0, 2, 1, 3).reshape(batch, length, n_heads * d_head)


def _softmax_last_axis(scores: np.ndarray) -> np.ndarray:
    shifted = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)


def multi_head_attention(
    x: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    n_heads: int,
    mask: np.ndarray | None = None,
) -> np.ndarray:
    """Reference implementation; never writes to its inputs."""
    d_head = x.shape[-1] // n_heads
    q = _split_heads(x @ w_q, n_heads)
    k = _split_heads(x @ w_k, n_heads)
    v = _split_heads(x @ w_v, n_heads)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)  # (B, H, L, L)
    if mask is not None:
        scores = scores + mask
    heads = _softmax_last_axis(scores) @ v  # (B, H, L, d)
    return np.asarray(_merge_heads(heads) @ w_o, dtype=np.float64)
