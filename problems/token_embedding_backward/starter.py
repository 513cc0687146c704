import numpy as np


def token_embedding_backward(token_ids: np.ndarray, vocab_size: int, grad_out: np.ndarray) -> np.ndarray:
    """Gradient of the loss with respect to a token embedding table.

    In the forward pass, embeddings = table[token_ids], a lookup in a table of shape
    (vocab_size, D).

    Args:
        token_ids: float64 array of shape (B, L) holding whole numbers in [0, vocab_size),
            the token at each position of each sequence.
        vocab_size: the number of rows of the table, a Python int >= 1.
        grad_out: float64 array of shape (B, L, D), the gradient of the loss with respect
            to the looked-up embeddings.

    Returns:
        A new float64 array of shape (vocab_size, D): row v is the sum of grad_out over
        every position whose token is v (all zeros for a token that does not occur).
        Neither input is modified.
    """
    raise NotImplementedError("add every position's gradient into the row of its token, repeats included")
