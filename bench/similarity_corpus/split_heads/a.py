import numpy as np


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    b, l, d = x.shape
    y = x.reshape(b, l, n_heads, d // n_heads)
    y = np.transpose(y, (0, 2, 1, 3))
    return y.copy()
