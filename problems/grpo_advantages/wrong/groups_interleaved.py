import numpy as np


def grpo_advantages(rewards, group_size):
    # reshape(group_size, -1) makes each column a group: completions g, g + G, g + 2G, ...
    groups = rewards.reshape(group_size, -1)
    mean = groups.mean(axis=0, keepdims=True)
    std = groups.std(axis=0, keepdims=True)
    return ((groups - mean) / (std + 1e-4)).reshape(-1)
