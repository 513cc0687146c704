import numpy as np


def layer_norm(x, gamma, beta, eps):
    x -= x.mean(axis=-1, keepdims=True)  # centre in place to save a copy
    var = (x * x).mean(axis=-1, keepdims=True)
    return x / np.sqrt(var + eps) * gamma + beta
