import numpy as np


def ppo_clip_loss(logp_new: np.ndarray, logp_old: np.ndarray, advantages: np.ndarray,
                  clip_eps: float) -> np.ndarray:
    """Reference: CleanRL's pg_loss, the mean of max(-A * ratio, -A * clip(ratio, 1 - eps, 1 + eps))."""
    ratio = np.exp(logp_new - logp_old)
    unclipped = -advantages * ratio
    clipped = -advantages * np.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps)
    return np.asarray(np.maximum(unclipped, clipped).mean(), dtype=np.float64)
