import numpy as np


def reward_model_loss(chosen_rewards: np.ndarray, rejected_rewards: np.ndarray) -> np.ndarray:
    margin = rejected_rewards - chosen_rewards  # the rejected response scored as the winner
    return np.asarray(np.logaddexp(0.0, -margin).mean(), dtype=np.float64)
