import numpy as np


def stable_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """Softmax of x along one axis, safe for very large or very negative inputs.

    Args:
        x: float64 array of any shape (at least 1-D). Entries are finite or -inf,
            and every slice along `axis` has at least one finite entry.
        axis: the axis to normalise along, a Python int; negative values count
            from the end, as everywhere in NumPy.

    Returns:
        A new float64 array of the same shape as x: every entry in [0, 1], and
        the entries of each slice along `axis` sum to 1. x is not modified.
    """
    raise NotImplementedError("subtract each slice's maximum, exponentiate, normalise")
