import numpy as np


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)
    losses = np.logaddexp(0.0, -(chosen_rewards - rejected_rewards))
    return losses, chosen_rewards, rejected_rewards  # TRL returns these losses; the mean is taken later
