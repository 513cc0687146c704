import numpy as np


def layer_norm(x, gamma, beta, eps):
    # Statistics over the batch axis, as in batch normalisation.
    mean = x.mean(axis=0, keepdims=True)
    var = x.var(axis=0, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
