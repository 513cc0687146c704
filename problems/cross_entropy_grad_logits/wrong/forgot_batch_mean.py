import numpy as np


def cross_entropy_grad_logits(logits, labels):
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    grad = e / e.sum(axis=1, keepdims=True)
    grad[np.arange(logits.shape[0]), labels.astype(np.int64)] -= 1.0
    return grad  # softmax - one_hot, as for a single example
