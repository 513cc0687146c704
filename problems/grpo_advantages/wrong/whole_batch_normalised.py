import numpy as np


def grpo_advantages(rewards, group_size):
    # One mean and std for every completion of every prompt.
    return (rewards - rewards.mean()) / (rewards.std() + 1e-4)
