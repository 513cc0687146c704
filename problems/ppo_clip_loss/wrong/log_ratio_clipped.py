import numpy as np


def ppo_clip_loss(logp_new, logp_old, advantages, clip_eps):
    log_ratio = logp_new - logp_old
    ratio = np.exp(log_ratio)
    clipped = np.exp(np.clip(log_ratio, -clip_eps, clip_eps))  # e^(+-eps), not 1 +- eps
    surrogate = np.minimum(ratio * advantages, clipped * advantages)
    return np.asarray(-surrogate.mean(), dtype=np.float64)
