import numpy as np


def dpo_loss(
    policy_chosen_logps: np.ndarray,
    policy_rejected_logps: np.ndarray,
    ref_chosen_logps: np.ndarray,
    ref_rejected_logps: np.ndarray,
    beta: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reference: TRL's sigmoid DPO loss (no label smoothing) and its implicit rewards."""
    chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)
    # -log sigmoid(z) = log(1 + e^-z), evaluated without overflow for either sign of z.
    losses = np.logaddexp(0.0, -(chosen_rewards - rejected_rewards))
    return np.asarray(losses.mean(), dtype=np.float64), chosen_rewards, rejected_rewards
