import numpy as np


def reward_model_loss(chosen_rewards: np.ndarray, rejected_rewards: np.ndarray) -> np.ndarray:
    margin = chosen_rewards - rejected_rewards
    return np.logaddexp(0.0, -margin).mean()  # a numpy.float64, not a 0-d array
