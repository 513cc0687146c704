"""Central finite-difference estimates of the three gradients of layer norm, from the forward alone.

L = sum(grad_out * (gamma * (x - mean) / sqrt(var + eps) + beta)) over the last axis (biased
variance) has dL/dy = grad_out, so its gradients with respect to x, gamma and beta are the answer.
beta is not an input: it is taken as 0, which changes no gradient. Each entry is nudged by +h and -h.
"""

import numpy as np

STEP = 1e-5


def _loss(x, gamma, beta, grad_out, eps) -> float:
    centred = x - x.mean(axis=-1, keepdims=True)
    y = gamma * centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + eps) + beta
    return float(np.sum(grad_out * y))


def _numeric(loss, value: np.ndarray) -> np.ndarray:
    estimate = np.zeros(value.shape)
    for index in np.ndindex(value.shape):
        step = np.zeros(value.shape)
        step[index] = STEP
        estimate[index] = (loss(value + step) - loss(value - step)) / (2 * STEP)
    return estimate


def layer_norm_affine_backward(x, gamma, grad_out, eps):
    beta = np.zeros(x.shape[-1])
    return (_numeric(lambda v: _loss(v, gamma, beta, grad_out, eps), x),
            _numeric(lambda v: _loss(x, v, beta, grad_out, eps), gamma),
            _numeric(lambda v: _loss(x, gamma, v, grad_out, eps), beta))
