import numpy as np


def _geometric(n):
    return [2.0 ** (-8.0 * (h + 1) / n) for h in range(n)]


def alibi_bias(n_heads, length):
    below = 1 << (n_heads.bit_length() - 1)
    # The first n - below slopes of twice the power, instead of every other one.
    slopes = np.array(_geometric(below) + _geometric(2 * below)[: n_heads - below])
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    return np.where(j <= i, slopes[:, None, None] * (j - i), -np.inf)
