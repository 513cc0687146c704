import numpy as np


def cross_entropy_grad_logits(logits, labels):
    batch = logits.shape[0]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    one_hot = np.zeros_like(probs)
    one_hot[np.arange(batch), labels.astype(np.int64)] = 1.0
    return (one_hot - probs) / batch
