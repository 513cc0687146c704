import numpy as np


def layer_norm_backward(x, gamma, grad_out, eps):
    # normalise each feature over the batch, as in batch norm
    centred = x - x.mean(axis=0, keepdims=True)
    inv_std = 1.0 / np.sqrt((centred**2).mean(axis=0, keepdims=True) + eps)
    x_hat = centred * inv_std
    g = grad_out * gamma
    return inv_std * (g - g.mean(axis=0, keepdims=True) - x_hat * (g * x_hat).mean(axis=0, keepdims=True))
