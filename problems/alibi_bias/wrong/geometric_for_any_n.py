import numpy as np


def alibi_bias(n_heads, length):
    # 2^(-8/n) as start and ratio for every n, a power of two or not.
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    return np.where(j <= i, slopes[:, None, None] * (j - i), -np.inf)
