import numpy as np


def ppo_clip_loss(logp_new, logp_old, advantages, clip_eps):
    ratio = np.exp(logp_new - logp_old)
    surrogate = np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * advantages  # no min with the unclipped term
    return np.asarray(-surrogate.mean(), dtype=np.float64)
