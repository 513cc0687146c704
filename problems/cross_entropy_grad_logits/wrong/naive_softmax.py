import numpy as np


def cross_entropy_grad_logits(logits, labels):
    batch = logits.shape[0]
    grad = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    grad[np.arange(batch), labels.astype(np.int64)] -= 1.0
    return grad / batch
