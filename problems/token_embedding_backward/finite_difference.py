"""A central finite-difference estimate of d loss / d table for a token embedding, from the forward alone.

The forward is a lookup, embeddings = table[token_ids]; the loss L(table) = sum(grad_out * table[ids])
has d L / d embeddings = grad_out, so its gradient with respect to the table is what the problem asks
for. Each entry of the table is nudged by +h and -h in turn. L is linear in the table, so the estimate
has no truncation error and any table will do as the point of evaluation; only rounding remains.
"""

import numpy as np

STEP = 1e-3


def _loss(table: np.ndarray, ids: np.ndarray, grad_out: np.ndarray) -> float:
    return float(np.sum(grad_out * table[ids]))


def token_embedding_backward(token_ids: np.ndarray, vocab_size: int, grad_out: np.ndarray) -> np.ndarray:
    ids = token_ids.astype(np.int64)
    width = grad_out.shape[-1]
    table = np.linspace(-1.0, 1.0, vocab_size * width).reshape(vocab_size, width)
    estimate = np.zeros((vocab_size, width))
    for index in np.ndindex(table.shape):
        step = np.zeros_like(table)
        step[index] = STEP
        up, down = _loss(table + step, ids, grad_out), _loss(table - step, ids, grad_out)
        estimate[index] = (up - down) / (2 * STEP)
    return estimate
