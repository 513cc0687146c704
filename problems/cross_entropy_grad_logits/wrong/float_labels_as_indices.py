import numpy as np


def cross_entropy_grad_logits(logits, labels):
    batch = logits.shape[0]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    grad = e / e.sum(axis=1, keepdims=True)
    grad[np.arange(batch), labels] -= 1.0
    return grad / batch
