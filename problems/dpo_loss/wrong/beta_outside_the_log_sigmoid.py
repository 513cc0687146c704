import numpy as np


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)
    logits = (policy_chosen_logps - policy_rejected_logps) - (ref_chosen_logps - ref_rejected_logps)
    losses = beta * np.logaddexp(0.0, -logits)  # beta scales the loss, not the margin inside it
    return np.asarray(losses.mean(), dtype=np.float64), chosen_rewards, rejected_rewards
