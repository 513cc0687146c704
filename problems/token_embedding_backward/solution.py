import numpy as np


def token_embedding_backward(token_ids: np.ndarray, vocab_size: int, grad_out: np.ndarray) -> np.ndarray:
    """Reference: scatter-add every position's gradient into its token's row, repeats included."""
    width = grad_out.shape[-1]
    ids = token_ids.astype(np.int64).ravel()  # float64 whole numbers; exact as integers
    rows = grad_out.reshape(-1, width)  # one row per position, in the same order as ids
    grad = np.zeros((vocab_size, width), dtype=np.float64)
    # np.add.at is unbuffered: a token that occurs k times receives all k rows. The augmented
    # assignment grad[ids] += rows would write each repeated row over the previous one.
    np.add.at(grad, ids, rows)
    return grad
