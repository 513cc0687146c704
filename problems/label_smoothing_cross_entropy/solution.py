import numpy as np


def label_smoothing_cross_entropy(logits: np.ndarray, labels: np.ndarray, smoothing: float) -> np.ndarray:
    """Reference: (1 - eps) * (lse - z_y) + eps * (lse - mean_k z_k) per row, in log space, averaged."""
    rows = np.arange(logits.shape[0])
    classes = labels.astype(np.int64)  # float64 whole numbers; exact as integers
    # Every logit minus its row's maximum is <= 0: nothing overflows, and no probability is
    # formed, so a class thousands below the maximum contributes its (finite) log-probability.
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_sums = np.log(np.exp(shifted).sum(axis=1))  # lse - max, in [0, log K]
    true_class = log_sums - shifted[rows, classes]  # -log p_y >= 0
    uniform = log_sums - shifted.mean(axis=1)  # -mean_k log p_k >= 0
    losses = (1.0 - smoothing) * true_class + smoothing * uniform
    return np.asarray(losses.mean(), dtype=np.float64)
