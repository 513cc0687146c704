"""Central finite-difference estimates of the gradients of attention, from the forward alone.

L = sum(grad_out * softmax(q k^T / sqrt(d) + mask) v) has dL/dO = grad_out, so its gradients with
respect to q, k and v are the answer. Each entry is nudged by +h and -h; only small cases with
scores of size 1 are marked for this check.
"""

import numpy as np

STEP = 1e-5


def _loss(q, k, v, grad_out, mask) -> float:
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return float(np.sum(grad_out * (weights @ v)))


def _numeric(loss, value: np.ndarray) -> np.ndarray:
    estimate = np.zeros(value.shape)
    for index in np.ndindex(value.shape):
        step = np.zeros(value.shape)
        step[index] = STEP
        estimate[index] = (loss(value + step) - loss(value - step)) / (2 * STEP)
    return estimate


def attention_backward(q, k, v, grad_out, mask=None):
    return (_numeric(lambda a: _loss(a, k, v, grad_out, mask), q),
            _numeric(lambda a: _loss(q, a, v, grad_out, mask), k),
            _numeric(lambda a: _loss(q, k, a, grad_out, mask), v))
