import numpy as np


def reward_model_loss(chosen_rewards: np.ndarray, rejected_rewards: np.ndarray) -> np.ndarray:
    margin = chosen_rewards - rejected_rewards
    return np.asarray(np.logaddexp(0.0, -margin).sum(), dtype=np.float64)
