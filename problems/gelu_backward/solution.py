import math

import numpy as np

_SQRT_PI = math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_SPLIT = 2.0  # |t| below this: the power series; above: the continued fraction
_SERIES_TERMS = 34
_FRACTION_DEPTH = 80

# Coefficients of erf(t) = 2/sqrt(pi) * t * exp(-t^2) * sum_n c_n t^(2n),
# c_n = 2^n / (1 * 3 * 5 * ... * (2n + 1)). Every term is positive, so nothing cancels.
_COEFFICIENTS = [1.0]
for _n in range(1, _SERIES_TERMS + 1):
    _COEFFICIENTS.append(_COEFFICIENTS[-1] * 2.0 / (2 * _n + 1))


def _erf_series(t: np.ndarray) -> np.ndarray:
    """erf(t) for 0 <= t < 2, to a few units in the last place."""
    u = t * t
    total = np.full_like(t, _COEFFICIENTS[-1])
    for c in reversed(_COEFFICIENTS[:-1]):  # Horner's rule in u = t^2, on our own temporary
        total *= u
        total += c
    return (2.0 / _SQRT_PI) * t * np.exp(-u) * total


def _erfc_fraction(t: np.ndarray) -> np.ndarray:
    """erfc(t) for t >= 2, to a few units in the last place, relative (a continued fraction)."""
    t = np.minimum(t, 40.0)  # erfc(40) underflows to 0 anyway; this keeps t * t finite
    denominator = t.copy()
    for k in range(_FRACTION_DEPTH, 0, -1):
        np.divide(0.5 * k, denominator, out=denominator)
        denominator += t
    return np.exp(-t * t) / (_SQRT_PI * denominator)


def _normal_cdf(x: np.ndarray) -> np.ndarray:
    """Phi(x), accurate in both tails: the lower tail comes from erfc directly, without 1 - erf."""
    t = np.abs(x) / math.sqrt(2.0)
    lower_tail = np.empty_like(t)
    near = t < _SPLIT
    lower_tail[near] = 0.5 * (1.0 - _erf_series(t[near]))
    lower_tail[~near] = 0.5 * _erfc_fraction(t[~near])
    return np.where(x < 0, lower_tail, 1.0 - lower_tail)


def gelu_backward(x: np.ndarray, grad_out: np.ndarray) -> np.ndarray:
    """Reference: grad_out * (Phi(x) + x * phi(x)), the product rule applied to x * Phi(x)."""
    # np.minimum keeps x * x finite for any float64; the density underflows to 0 long before 1e150.
    density = np.exp(-0.5 * np.minimum(x * x, 1e4)) / _SQRT_2PI
    return np.asarray(grad_out * (_normal_cdf(x) + x * density), dtype=np.float64)
