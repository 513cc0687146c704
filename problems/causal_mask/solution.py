import numpy as np


def causal_mask(length: int) -> np.ndarray:
    """Reference: -inf strictly above the diagonal (key j > query i), 0 elsewhere."""
    # np.triu with k=1 keeps the entries with column - row >= 1 and zeroes the
    # rest, so the diagonal itself stays 0: every query may see itself.
    return np.triu(np.full((length, length), -np.inf, dtype=np.float64), k=1)
