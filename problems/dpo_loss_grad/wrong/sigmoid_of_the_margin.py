import numpy as np


def dpo_loss_grad(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    z = beta * ((policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps))
    weight = beta * np.exp(-np.logaddexp(0.0, -z)) / z.shape[0]  # sigmoid(z), the derivative of log sigmoid's argument mixed up
    return -weight, weight
