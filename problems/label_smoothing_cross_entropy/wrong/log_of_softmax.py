import numpy as np


def label_smoothing_cross_entropy(logits, labels, smoothing):
    batch, classes = logits.shape
    target = np.full((batch, classes), smoothing / classes)
    target[np.arange(batch), labels.astype(np.int64)] += 1.0 - smoothing
    e = np.exp(logits - logits.max(axis=1, keepdims=True))  # stable softmax
    probs = e / e.sum(axis=1, keepdims=True)
    return np.asarray(-(target * np.log(probs)).sum(axis=1).mean())
