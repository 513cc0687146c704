import numpy as np


def grpo_advantages(rewards: np.ndarray, group_size: int) -> np.ndarray:
    """GRPO's group-relative advantages.

    Args:
        rewards: float64 array of shape (G * group_size,): the rewards of group_size completions
            of each of G prompts, the completions of one prompt next to each other.
        group_size: a Python int >= 1.

    Returns:
        A float64 array of shape (G * group_size,): (r - group mean) / (group std + 1e-4), with
        the population standard deviation (divide by group_size). A group of equal rewards gets
        0. No input is modified.
    """
    raise NotImplementedError("reshape into (G, group_size), normalise each row, flatten back")
