import numpy as np


def sample_next_token(logits: np.ndarray, temperature: float, u: np.ndarray) -> np.ndarray:
    """Sample one token per row by inverse CDF.

    Args:
        logits: float64 array of shape (B, V); entries are finite or -inf (tokens never allowed),
            every row has at least one finite entry.
        temperature: a Python float > 0; the probabilities are softmax(logits / temperature) per row.
        u: float64 array of shape (B,), one uniform number in [0, 1) per row.

    Returns:
        An int64 array of shape (B,): for each row, the first token whose cumulative probability
        exceeds u. The inputs are not modified.
    """
    raise NotImplementedError("softmax of logits / temperature per row, cumulative sum, first sum > u")
