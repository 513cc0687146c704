import numpy as np


def label_smoothing_cross_entropy(logits, labels, smoothing):
    # Smooth the model's distribution towards uniform, then take the usual loss of the label.
    classes = logits.shape[1]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = (1.0 - smoothing) * e / e.sum(axis=1, keepdims=True) + smoothing / classes
    return np.asarray(-np.log(probs[np.arange(logits.shape[0]), labels.astype(np.int64)]).mean())
