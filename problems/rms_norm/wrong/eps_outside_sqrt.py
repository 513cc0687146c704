import numpy as np


def rms_norm(x, gamma, eps):
    rms = np.sqrt(np.mean(x * x, axis=-1, keepdims=True))
    return x / (rms + eps) * gamma
