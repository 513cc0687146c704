import numpy as np


def top_p_logits(logits: np.ndarray, p: float) -> np.ndarray:
    """Top-p (nucleus) filtering of next-token logits.

    Args:
        logits: float64 array of shape (..., V); entries finite or -inf, at least one finite
            entry per row.
        p: a Python float, 0 < p < 1.

    Returns:
        A new float64 array of the same shape: rank each row's tokens by logit, keep a token
        when the total probability (softmax of the row) of the tokens ranked above it is
        below p, keep every token whose logit equals the last kept one, and set the rest to
        -inf. The input is not modified.
    """
    raise NotImplementedError("sort, softmax, cumulative sum; keep tokens until the mass above them reaches p")
