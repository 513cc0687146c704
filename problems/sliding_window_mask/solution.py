import numpy as np


def sliding_window_mask(length: int, window: int) -> np.ndarray:
    """Reference: 0 where i - window < j <= i, -inf everywhere else."""
    queries = np.arange(length)[:, None]
    keys = np.arange(length)[None, :]
    allowed = (keys <= queries) & (keys > queries - window)
    return np.where(allowed, 0.0, -np.inf)
