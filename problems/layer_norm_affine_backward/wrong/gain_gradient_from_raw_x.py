import numpy as np
from solved import layer_norm_backward


def layer_norm_affine_backward(x, gamma, grad_out, eps):
    features = x.shape[-1]
    grad_gamma = (grad_out * x).reshape(-1, features).sum(axis=0)
    grad_beta = grad_out.reshape(-1, features).sum(axis=0)
    return layer_norm_backward(x, gamma, grad_out, eps), grad_gamma, grad_beta
