import numpy as np


def layer_norm(x, gamma, beta, eps):
    m = np.mean(x, axis=-1, keepdims=True)
    v = np.mean((x - m) ** 2, axis=-1, keepdims=True)
    y = (x - m) / np.sqrt(v + eps)
    return y * gamma + beta
