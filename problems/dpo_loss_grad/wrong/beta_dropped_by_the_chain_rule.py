import numpy as np


def dpo_loss_grad(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    z = beta * ((policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps))
    weight = np.exp(-np.logaddexp(0.0, z)) / z.shape[0]  # d loss / d z, not yet times dz / d logp = beta
    return -weight, weight
