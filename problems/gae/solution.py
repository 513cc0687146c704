import numpy as np


def gae(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, gamma: float,
        lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Reference: CleanRL's backward recursion, with dones[t] cutting step t from what follows."""
    steps = rewards.shape[0]
    advantages = np.zeros(steps, dtype=np.float64)
    running = 0.0
    for t in reversed(range(steps)):
        alive = 1.0 - dones[t]  # 0 when step t ended its episode: nothing after it counts
        delta = rewards[t] + gamma * values[t + 1] * alive - values[t]
        running = delta + gamma * lam * alive * running
        advantages[t] = running
    return advantages, advantages + values[:steps]
