import numpy as np


def gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, gamma: float,
        lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Generalised advantage estimation over one rollout, as CleanRL's PPO computes it.

    Args:
        rewards: float64 array of shape (T,), the reward of each step.
        values: float64 array of shape (T + 1,), the critic's value of each step's state;
            values[T] is the value of the state after the last step (the bootstrap).
        dones: float64 array of shape (T,) of 0s and 1s: dones[t] = 1 when step t ended its
            episode, so nothing after step t belongs to step t's return.
        gamma: a Python float in [0, 1], the discount. lam: a Python float in [0, 1].

    Returns:
        A tuple (advantages, returns) of float64 arrays of shape (T,):
        delta_t = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t],
        advantages[t] = delta_t + gamma * lam * (1 - dones[t]) * advantages[t + 1] (0 past the end),
        returns = advantages + values[:T]. No input is modified.
    """
    raise NotImplementedError("walk backwards from the last step, cutting the recursion where dones is 1")
