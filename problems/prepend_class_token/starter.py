import numpy as np


def prepend_class_token(patches: np.ndarray, cls_token: np.ndarray) -> np.ndarray:
    """Insert the class token at position 0 of every sequence in the batch.

    Args:
        patches: float64 array of shape (B, N, D), one row per patch embedding.
        cls_token: float64 array of shape (1, 1, D), the shared learned token.

    Returns:
        A new float64 array of shape (B, N + 1, D) whose slot 0 holds the token
        and whose slots 1..N hold the patches in their original order.
        Neither input may be modified.
    """
    raise NotImplementedError("prepend the class token here")
