import numpy as np


def label_smoothing_cross_entropy(logits, labels, smoothing):
    # Keep 1 - eps on the true class and share eps among the K - 1 wrong ones.
    batch, classes = logits.shape
    target = np.full((batch, classes), smoothing / (classes - 1))
    target[np.arange(batch), labels.astype(np.int64)] = 1.0 - smoothing
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return np.asarray(-(target * log_probs).sum(axis=1).mean())
