import numpy as np


def rms_norm(x, gamma, eps):
    x /= np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    return x * gamma
