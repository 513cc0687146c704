import numpy as np


def _power_of_two_slopes(n: int) -> list[float]:
    # 2^(-8/n), 2^(-16/n), ..., 2^(-8): a geometric sequence whose start equals its ratio.
    return [2.0 ** (-8.0 * (h + 1) / n) for h in range(n)]


def alibi_slopes(n_heads: int) -> np.ndarray:
    """The ALiBi paper's slopes: geometric for a power of two, otherwise the slopes of the
    power of two below n_heads followed by every other slope of twice that power."""
    below = 1 << (n_heads.bit_length() - 1)
    slopes = _power_of_two_slopes(below)
    slopes += _power_of_two_slopes(2 * below)[0::2][: n_heads - below]
    return np.array(slopes)


def alibi_bias(n_heads: int, length: int) -> np.ndarray:
    """Reference: slope_h * (j - i) for keys j <= i, -inf for j > i."""
    queries = np.arange(length)[:, None]
    keys = np.arange(length)[None, :]
    distance = (keys - queries).astype(np.float64)  # 0 on the diagonal, negative below it
    bias = alibi_slopes(n_heads)[:, None, None] * distance
    return np.where(keys <= queries, bias, -np.inf)
