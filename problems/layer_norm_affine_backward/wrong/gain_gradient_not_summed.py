import numpy as np
from solved import layer_norm_backward


def layer_norm_affine_backward(x, gamma, grad_out, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    x_hat = centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + eps)
    grad_beta = grad_out.reshape(-1, x.shape[-1]).sum(axis=0)
    return layer_norm_backward(x, gamma, grad_out, eps), grad_out * x_hat, grad_beta
