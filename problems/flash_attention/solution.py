import numpy as np


def flash_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, block_size: int, causal: bool) -> np.ndarray:
    """Reference: softmax(q k^T / sqrt(d) [+ causal mask]) v, one key block at a time.

    Per query it keeps a running maximum m, a running sum l of exp(score - m) and a running
    weighted sum acc of values; when a block raises m, l and acc are rescaled by exp(m_old - m_new).
    Only a (L, block_size) slice of scores ever exists.
    """
    length, width = q.shape[-2], q.shape[-1]
    scale = 1.0 / np.sqrt(width)
    running_max = np.full(q.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    queries = np.arange(length)[:, None]
    for start in range(0, k.shape[-2], block_size):
        stop = min(start + block_size, k.shape[-2])
        scores = q @ np.swapaxes(k[..., start:stop, :], -1, -2) * scale
        if causal:
            scores = np.where(np.arange(start, stop)[None, :] > queries, -np.inf, scores)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        # Key 0 is in the first block and every query sees it, so new_max is finite from
        # the first block on and these exponents never compute -inf - (-inf).
        weights = np.exp(scores - new_max)
        correction = np.exp(running_max - new_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        acc = acc * correction + weights @ v[..., start:stop, :]
        running_max = new_max
    return np.asarray(acc / running_sum, dtype=np.float64)
