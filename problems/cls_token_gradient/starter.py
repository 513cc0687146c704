import numpy as np


def cls_token_gradient(grad_sequence: np.ndarray) -> np.ndarray:
    """Gradient of the loss with respect to the shared class-token parameter.

    Args:
        grad_sequence: float64 array of shape (B, N + 1, D), the gradient of the loss
            with respect to the sequence after the class token was prepended
            (slot 0 of every image holds a copy of the token).

    Returns:
        A new float64 array of shape (1, 1, D), the shape of the token parameter.
        grad_sequence is not modified.
    """
    raise NotImplementedError("collect slot 0 of every image into the one token")
