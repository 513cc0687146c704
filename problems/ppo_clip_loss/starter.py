import numpy as np


def ppo_clip_loss(logp_new: np.ndarray, logp_old: np.ndarray, advantages: np.ndarray,
                  clip_eps: float) -> np.ndarray:
    """PPO's clipped policy loss, as CleanRL computes it.

    Args:
        logp_new: float64 array of shape (N,), each action's log-probability under the policy
            being updated.
        logp_old: float64 array of shape (N,), the same under the policy that collected the data.
        advantages: float64 array of shape (N,), used as given (no normalisation here).
        clip_eps: a Python float in [0, 1), the clipping range.

    Returns:
        The negative mean clipped surrogate, -mean(min(ratio * A, clip(ratio, 1 - eps, 1 + eps) * A))
        with ratio = exp(logp_new - logp_old), as a float64 array of shape (). No input is modified.
    """
    raise NotImplementedError("ratio = exp(new - old); the pessimistic min of the clipped and unclipped surrogate")
