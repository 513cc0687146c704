import numpy as np


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    B, L, D = x.shape
    d = D // n_heads
    return x.reshape(B, L, n_heads, d).transpose(0, 2, 1, 3).copy()
