import numpy as np


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)
    sigmoid = 1.0 / (1.0 + np.exp(-(chosen_rewards - rejected_rewards)))
    return np.asarray(-np.log(sigmoid).mean(), dtype=np.float64), chosen_rewards, rejected_rewards
