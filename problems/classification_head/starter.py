import numpy as np


def classification_head(y: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Map one pooled vector per image to one score (logit) per class.

    Args:
        y: float64 array of shape (B, D): the readout of the encoder (class token or mean).
        weight: float64 array of shape (D, K), input width first.
        bias: float64 array of shape (K,).

    Returns:
        A new float64 array of shape (B, K): the logits y @ weight + bias, before any
        softmax. No input may be modified.
    """
    raise NotImplementedError("one matrix product and the bias")
