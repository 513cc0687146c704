import numpy as np


def padding_mask(lengths: np.ndarray, max_len: int) -> np.ndarray:
    """Additive mask that blocks the padded key positions of each sequence.

    Args:
        lengths: float64 array of shape (B,) holding whole numbers with
            1 <= lengths[b] <= max_len: the real length of sequence b.
        max_len: the padded length of every sequence, a Python int.

    Returns:
        A float64 array of shape (B, 1, 1, max_len). Entry [b, 0, 0, j] is 0.0
        when position j is a real token of sequence b (j < lengths[b]) and
        -np.inf when it is padding. lengths is not modified.
    """
    raise NotImplementedError("compare the positions with the lengths here")
