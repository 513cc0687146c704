import math

import numpy as np


def gelu(x: np.ndarray) -> np.ndarray:
    """The exact GELU, x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt(2))), elementwise.

    Args:
        x: float64 array of any shape (at least 1-D), finite entries.

    Returns:
        A new float64 array of the same shape as x. x is not modified.

    NumPy has no erf and SciPy is not available: use math.erf entry by entry
    (np.vectorize), or build an accurate erf from NumPy operations.
    """
    raise NotImplementedError("compute Phi(x) with an accurate erf, then multiply by x")
