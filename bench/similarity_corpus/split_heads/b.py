import numpy as np


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    heads = np.split(x, n_heads, axis=-1)
    stacked = np.stack(heads, axis=1)
    return stacked.astype(np.float64)
