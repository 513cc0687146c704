"""A central finite-difference estimate of d loss / d pos_embedding, from the forward alone.

The forward adds the table to some fixed tokens, and the scalar
L(pos) = sum(grad_tokens * (tokens + pos)) has d L / d (tokens + pos) = grad_tokens, so its
gradient with respect to the table is exactly what the problem asks for. Each of the
L * D entries of the table is nudged by +h and -h.
"""

import numpy as np

STEP = 1e-3  # L is linear in the table: no truncation error, so a large step keeps rounding small


def _loss(grad_tokens: np.ndarray, tokens: np.ndarray, pos_embedding: np.ndarray) -> float:
    return float(np.sum(grad_tokens * (tokens + pos_embedding)))


def positional_embedding_gradient(grad_tokens: np.ndarray) -> np.ndarray:
    _, length, width = grad_tokens.shape
    points = np.random.default_rng(0)
    tokens = points.standard_normal(grad_tokens.shape)
    pos_embedding = 0.02 * points.standard_normal((1, length, width))
    estimate = np.zeros((1, length, width))
    for index in np.ndindex(estimate.shape):
        step = np.zeros((1, length, width))
        step[index] = STEP
        up = _loss(grad_tokens, tokens, pos_embedding + step)
        down = _loss(grad_tokens, tokens, pos_embedding - step)
        estimate[index] = (up - down) / (2 * STEP)
    return estimate
