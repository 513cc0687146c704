import numpy as np


def causal_mask(length: int) -> np.ndarray:
    """Additive causal mask for a sequence of `length` tokens.

    Args:
        length: the number of tokens, a Python int >= 1.

    Returns:
        A float64 array of shape (length, length). Entry [i, j] is 0.0 when
        key j may be seen by query i (j <= i) and -np.inf when it may not
        (j > i, a future token).
    """
    raise NotImplementedError("build the (length, length) mask here")
