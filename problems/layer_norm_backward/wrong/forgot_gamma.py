import numpy as np


def layer_norm_backward(x, gamma, grad_out, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    inv_std = 1.0 / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + eps)
    x_hat = centred * inv_std
    g = grad_out  # gamma only scales the output
    return inv_std * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
