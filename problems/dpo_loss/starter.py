import numpy as np

# Your own accepted solution of reward_model_loss can be imported here:
# from solved import reward_model_loss


def dpo_loss(
    policy_chosen_logps: np.ndarray,
    policy_rejected_logps: np.ndarray,
    ref_chosen_logps: np.ndarray,
    ref_rejected_logps: np.ndarray,
    beta: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Direct Preference Optimization's loss, as TRL's sigmoid loss computes it.

    Args:
        policy_chosen_logps, policy_rejected_logps: float64 arrays of shape (B,), the summed
            log-probabilities of each chosen and rejected response under the policy being trained.
        ref_chosen_logps, ref_rejected_logps: float64 arrays of shape (B,), the same under the
            frozen reference model.
        beta: a Python float > 0, the strength of the pull towards the reference.

    Returns:
        A tuple (loss, chosen_rewards, rejected_rewards): chosen_rewards = beta * (policy_chosen
        - ref_chosen), rejected_rewards likewise, both shape (B,); loss the mean of
        -log sigmoid(chosen_rewards - rejected_rewards), a float64 array of shape (). No input
        is modified.
    """
    raise NotImplementedError("implicit rewards beta * (policy - ref); loss = mean -log sigmoid(margin)")
