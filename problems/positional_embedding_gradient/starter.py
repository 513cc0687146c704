import numpy as np


def positional_embedding_gradient(grad_tokens: np.ndarray) -> np.ndarray:
    """Gradient of the loss with respect to a learned positional-embedding table.

    Args:
        grad_tokens: float64 array of shape (B, L, D), the gradient of the loss with
            respect to tokens + pos_embedding, where the (1, L, D) table was
            broadcast over the batch.

    Returns:
        A new float64 array of shape (1, L, D), the shape of the table.
        grad_tokens is not modified.
    """
    raise NotImplementedError("each position's gradient, collected over the batch")
