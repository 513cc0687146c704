import numpy as np


def adamw_step(param, grad, m, v, step, lr, beta1, beta2, eps, weight_decay):
    decayed = param * (1.0 - lr * weight_decay)
    m_new = beta1 * m + (1.0 - beta1) * grad
    v_new = beta2 * v + (1.0 - beta2) * grad * grad
    return decayed - lr * m_new / (np.sqrt(v_new) + eps), m_new, v_new
