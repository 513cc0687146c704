import numpy as np


def gae(rewards, values, dones, gamma, lam):
    steps = rewards.shape[0]
    advantages = np.zeros(steps)
    returns = np.zeros(steps)
    running, to_go = 0.0, values[steps]
    for t in reversed(range(steps)):
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * values[t + 1] * alive - values[t]
        running = delta + gamma * lam * alive * running
        advantages[t] = running
        to_go = rewards[t] + gamma * alive * to_go  # the discounted return, not the GAE target
        returns[t] = to_go
    return advantages, returns
