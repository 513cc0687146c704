import numpy as np

EPS = 1e-4


def grpo_advantages(rewards: np.ndarray, group_size: int) -> np.ndarray:
    """Reference: each reward against its own group's mean and population standard deviation."""
    groups = rewards.reshape(-1, group_size)  # (G, group_size): consecutive completions of one prompt
    mean = groups.mean(axis=1, keepdims=True)
    std = np.sqrt(((groups - mean) ** 2).mean(axis=1, keepdims=True))  # ddof = 0, two passes
    return ((groups - mean) / (std + EPS)).reshape(-1)
