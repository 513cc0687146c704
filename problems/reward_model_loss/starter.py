import numpy as np


def reward_model_loss(chosen_rewards: np.ndarray, rejected_rewards: np.ndarray) -> np.ndarray:
    """The Bradley-Terry loss of a reward model on a batch of preference pairs.

    Args:
        chosen_rewards: float64 array of shape (B,), the reward of each preferred response.
        rejected_rewards: float64 array of shape (B,), the reward of the other response.

    Returns:
        The mean over the batch of -log sigmoid(chosen - rejected), as a float64 ndarray of
        shape () (a 0-d array); finite for differences of +-1e4. No input is modified.
    """
    raise NotImplementedError("mean of -log sigmoid(chosen - rejected), computed without overflow")
