import numpy as np


def sliding_window_mask(length: int, window: int) -> np.ndarray:
    """The additive attention mask of a causal sliding window.

    Args:
        length: the sequence length L, a Python int >= 1.
        window: the number of keys each query sees, itself included, a Python int >= 1.

    Returns:
        A float64 array of shape (length, length): entry (i, j) is 0.0 when query i may
        attend to key j, that is i - window < j <= i, and -inf otherwise.
    """
    raise NotImplementedError("0 for the window - 1 keys before each query and the query itself, -inf elsewhere")
