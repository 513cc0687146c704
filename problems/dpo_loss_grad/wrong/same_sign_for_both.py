import numpy as np


def dpo_loss_grad(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    z = beta * ((policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps))
    weight = beta * np.exp(-np.logaddexp(0.0, z)) / z.shape[0]
    return -weight, -weight.copy()  # the rejected log-probability enters the margin with a minus sign
