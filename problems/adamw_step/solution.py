import numpy as np


def adamw_step(param, grad, m, v, step, lr, beta1, beta2, eps, weight_decay):
    decayed = param * (1.0 - lr * weight_decay)  # decoupled: the gradient never sees the decay
    m_new = beta1 * m + (1.0 - beta1) * grad
    v_new = beta2 * v + (1.0 - beta2) * grad * grad
    m_hat = m_new / (1.0 - beta1**step)
    v_hat = v_new / (1.0 - beta2**step)
    return decayed - lr * m_hat / (np.sqrt(v_hat) + eps), m_new, v_new
