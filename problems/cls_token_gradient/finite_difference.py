"""A central finite-difference estimate of d loss / d cls_token, from the forward alone.

The forward prepends the token to some fixed patches, and the scalar
L(cls) = sum(grad_sequence * prepend(patches, cls)) has d L / d sequence = grad_sequence,
so its gradient with respect to cls is exactly what the problem asks for. Each of the
D entries of the token is nudged by +h and -h.
"""

import numpy as np

STEP = 1e-3  # L is linear in the token: no truncation error, so a large step keeps rounding small


def _prepend(patches: np.ndarray, cls_token: np.ndarray) -> np.ndarray:
    batch, _, width = patches.shape
    return np.concatenate([np.broadcast_to(cls_token, (batch, 1, width)), patches], axis=1)


def _loss(grad_sequence: np.ndarray, patches: np.ndarray, cls_token: np.ndarray) -> float:
    return float(np.sum(grad_sequence * _prepend(patches, cls_token)))


def cls_token_gradient(grad_sequence: np.ndarray) -> np.ndarray:
    batch, length, width = grad_sequence.shape
    points = np.random.default_rng(0)
    patches = points.standard_normal((batch, length - 1, width))
    cls_token = 0.02 * points.standard_normal((1, 1, width))
    estimate = np.zeros((1, 1, width))
    for d in range(width):
        step = np.zeros((1, 1, width))
        step[0, 0, d] = STEP
        up = _loss(grad_sequence, patches, cls_token + step)
        down = _loss(grad_sequence, patches, cls_token - step)
        estimate[0, 0, d] = (up - down) / (2 * STEP)
    return estimate
