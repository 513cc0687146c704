import numpy as np


def adamw_step(param, grad, m, v, step, lr, beta1, beta2, eps, weight_decay):
    decayed = param * (1.0 - weight_decay)
    m_new = beta1 * m + (1.0 - beta1) * grad
    v_new = beta2 * v + (1.0 - beta2) * grad * grad
    m_hat, v_hat = m_new / (1.0 - beta1**step), v_new / (1.0 - beta2**step)
    return decayed - lr * m_hat / (np.sqrt(v_hat) + eps), m_new, v_new
