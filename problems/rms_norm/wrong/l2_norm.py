import numpy as np


def rms_norm(x, gamma, eps):
    norm = np.sqrt(np.sum(x * x, axis=-1, keepdims=True) + eps)
    return x / norm * gamma
