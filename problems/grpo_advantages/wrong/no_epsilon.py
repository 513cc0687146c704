import numpy as np


def grpo_advantages(rewards, group_size):
    groups = rewards.reshape(-1, group_size)
    mean = groups.mean(axis=1, keepdims=True)
    std = groups.std(axis=1, keepdims=True)
    return ((groups - mean) / std).reshape(-1)  # 0 / 0 where a group's rewards are all equal
