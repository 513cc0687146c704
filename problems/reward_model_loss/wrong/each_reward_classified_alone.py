import numpy as np


def reward_model_loss(chosen_rewards: np.ndarray, rejected_rewards: np.ndarray) -> np.ndarray:
    # A logistic classifier per response: chosen ones towards 1, rejected ones towards 0.
    losses = np.logaddexp(0.0, -chosen_rewards) + np.logaddexp(0.0, rejected_rewards)
    return np.asarray(losses.mean(), dtype=np.float64)
