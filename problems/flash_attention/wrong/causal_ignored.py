import numpy as np


def flash_attention(q, k, v, block_size, causal):
    length = q.shape[-2]
    running_max = np.full(q.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, length, block_size):
        stop = min(start + block_size, length)
        scores = q @ np.swapaxes(k[..., start:stop, :], -1, -2) / np.sqrt(q.shape[-1])
        new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        weights = np.exp(scores - new_max)
        correction = np.exp(running_max - new_max)
        running_sum = running_sum * correction + weights.sum(axis=-1, keepdims=True)
        acc = acc * correction + weights @ v[..., start:stop, :]
        running_max = new_max
    return acc / running_sum
