import numpy as np


def alibi_bias(n_heads: int, length: int) -> np.ndarray:
    """ALiBi's causal attention bias for every head.

    Args:
        n_heads: the number of attention heads, a Python int >= 1.
        length: the sequence length L, a Python int >= 1.

    Returns:
        A float64 array of shape (n_heads, length, length): entry (h, i, j) is
        m_h * (j - i) for j <= i and -inf for j > i, where m_h is head h's slope
        (the rule is in the statement).
    """
    raise NotImplementedError("one slope per head times the non-positive distance j - i, -inf above the diagonal")
