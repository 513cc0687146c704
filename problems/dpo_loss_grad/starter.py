import numpy as np


def dpo_loss_grad(
    policy_chosen_logps: np.ndarray,
    policy_rejected_logps: np.ndarray,
    ref_chosen_logps: np.ndarray,
    ref_rejected_logps: np.ndarray,
    beta: float,
) -> tuple[np.ndarray, np.ndarray]:
    """The gradient of dpo_loss's mean loss with respect to the policy's log-probabilities.

    Args:
        policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps:
            float64 arrays of shape (B,), as for dpo_loss.
        beta: a Python float > 0.

    Returns:
        A tuple (grad_chosen, grad_rejected) of float64 arrays of shape (B,): d loss / d
        policy_chosen_logps and d loss / d policy_rejected_logps, where loss is the mean over the
        batch of -log sigmoid(beta * ((pc - rc) - (pr - rr))). No input is modified.
    """
    raise NotImplementedError("chain rule: d(-log sigmoid z)/dz = -sigmoid(-z), times dz/dpc = beta, over B")
