"""A central finite-difference estimate of d loss / d logits for a softmax, from the forward alone.

The function receives the softmax's output p, not its logits, but z = log(p) is a set of
logits with softmax(z) = p, and the Jacobian of softmax depends only on p. The scalar
L(z) = sum(grad_probs * softmax(z, axis)) has d L / d softmax(z) = grad_probs, so its
gradient with respect to z is exactly what the problem asks for. Each logit is nudged by
+h and -h; only small cases with strictly positive probabilities are marked for this check.
"""

import numpy as np

STEP = 1e-5


def _softmax(z: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _loss(z: np.ndarray, grad_probs: np.ndarray, axis: int) -> float:
    return float(np.sum(grad_probs * _softmax(z, axis)))


def softmax_backward(probs: np.ndarray, grad_probs: np.ndarray, axis: int) -> np.ndarray:
    logits = np.log(probs)
    estimate = np.zeros_like(probs, dtype=np.float64)
    for index in np.ndindex(probs.shape):
        step = np.zeros_like(logits)
        step[index] = STEP
        up, down = _loss(logits + step, grad_probs, axis), _loss(logits - step, grad_probs, axis)
        estimate[index] = (up - down) / (2 * STEP)
    return estimate
