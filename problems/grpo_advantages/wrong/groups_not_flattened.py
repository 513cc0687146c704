import numpy as np


def grpo_advantages(rewards, group_size):
    groups = rewards.reshape(-1, group_size)
    mean = groups.mean(axis=1, keepdims=True)
    std = groups.std(axis=1, keepdims=True)
    return (groups - mean) / (std + 1e-4)  # (G, group_size)
