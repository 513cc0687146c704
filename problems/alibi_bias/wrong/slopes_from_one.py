import numpy as np


def _geometric(n):
    # Exponents 0, -8/n, ..., so the first head's slope is 1 instead of 2^(-8/n).
    return [2.0 ** (-8.0 * h / n) for h in range(n)]


def alibi_bias(n_heads, length):
    below = 1 << (n_heads.bit_length() - 1)
    slopes = np.array(_geometric(below) + _geometric(2 * below)[0::2][: n_heads - below])
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    return np.where(j <= i, slopes[:, None, None] * (j - i), -np.inf)
