import numpy as np


def layer_norm_backward(x, gamma, grad_out, eps):
    var = x.var(axis=-1, keepdims=True)
    grad_hat = grad_out * gamma
    # the mean depends on x, so subtract the mean of the gradient; sigma is a constant
    return (grad_hat - grad_hat.mean(axis=-1, keepdims=True)) / np.sqrt(var + eps)
