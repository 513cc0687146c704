import numpy as np


def softmax_cross_entropy(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Mean softmax cross-entropy of a batch of logit rows against their labels.

    Args:
        logits: float64 array of shape (B, K), one row of class scores per example;
            entries are finite and may reach the thousands in magnitude.
        labels: float64 array of shape (B,) holding whole numbers in [0, K), the
            true class of each row.

    Returns:
        The mean over the batch of logsumexp(logits[b]) - logits[b, labels[b]], as a
        float64 ndarray of shape () (a 0-d array, not a Python or NumPy scalar).
        Neither input is modified.
    """
    raise NotImplementedError("log-sum-exp of each row minus the label's logit, averaged over the batch")
