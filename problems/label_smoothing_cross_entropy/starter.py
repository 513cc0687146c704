import numpy as np


def label_smoothing_cross_entropy(logits: np.ndarray, labels: np.ndarray, smoothing: float) -> np.ndarray:
    """Mean cross-entropy of a batch of logit rows against label-smoothed targets.

    Each row's target puts 1 - smoothing + smoothing / K on its true class and smoothing / K
    on every other class (PyTorch's label_smoothing).

    Args:
        logits: float64 array of shape (B, K); entries are finite and may reach the thousands.
        labels: float64 array of shape (B,) holding whole numbers in [0, K), the true classes.
        smoothing: a Python float in [0, 1], the share of the target spread evenly over all K classes.

    Returns:
        The mean over the batch of -sum_k target[b, k] * log softmax(logits[b])[k], as a
        float64 ndarray of shape () (a 0-d array). Neither input is modified.
    """
    raise NotImplementedError("(1 - eps) times the usual loss plus eps times the mean of -log p over the classes")
