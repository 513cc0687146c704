import numpy as np


def label_smoothing_cross_entropy(logits, labels, smoothing):
    rows = np.arange(logits.shape[0])
    shifted = logits - logits.max(axis=1, keepdims=True)
    losses = np.log(np.exp(shifted).sum(axis=1)) - shifted[rows, labels.astype(np.int64)]
    return np.asarray(losses.mean())
