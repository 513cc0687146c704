import numpy as np


def dpo_loss_grad(
    policy_chosen_logps: np.ndarray,
    policy_rejected_logps: np.ndarray,
    ref_chosen_logps: np.ndarray,
    ref_rejected_logps: np.ndarray,
    beta: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Reference: d mean(-log sigmoid(z_b)) / d policy log-probs, with z_b = beta * margin_b."""
    z = beta * ((policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps))
    # d(-log sigmoid z)/dz = -sigmoid(-z); sigmoid(-z) = exp(-log(1 + e^z)) cannot overflow.
    weight = np.exp(-np.logaddexp(0.0, z)) * beta / z.shape[0]
    return -weight, weight
