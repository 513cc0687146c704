import numpy as np


def rms_norm(x, gamma, eps):
    return x / (np.mean(x * x, axis=-1, keepdims=True) + eps) * gamma
