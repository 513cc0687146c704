import numpy as np


def reward_model_loss(chosen_rewards: np.ndarray, rejected_rewards: np.ndarray) -> np.ndarray:
    """Reference: the mean of -log sigmoid(r_c - r_r) = log(1 + exp(-(r_c - r_r))), in log space."""
    margin = chosen_rewards - rejected_rewards
    # logaddexp(0, -d) = log(e^0 + e^-d) evaluates the softplus without overflow for either sign.
    return np.asarray(np.logaddexp(0.0, -margin).mean(), dtype=np.float64)
