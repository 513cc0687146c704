import numpy as np


def _geometric(n):
    return [2.0 ** (-8.0 * (h + 1) / n) for h in range(n)]


def alibi_bias(n_heads, length):
    below = 1 << (n_heads.bit_length() - 1)
    slopes = np.array(_geometric(below) + _geometric(2 * below)[0::2][: n_heads - below])
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    # i - j: the farther the key, the larger the bonus.
    return np.where(j <= i, slopes[:, None, None] * (i - j), -np.inf)
