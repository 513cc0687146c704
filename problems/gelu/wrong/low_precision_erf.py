import numpy as np


def _erf(z):
    # Abramowitz and Stegun 7.1.26: a five-term polynomial, error up to 1.5e-7.
    p = 0.3275911
    a1, a2, a3, a4, a5 = 0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429
    s = np.sign(z)
    z = np.abs(z)
    t = 1.0 / (1.0 + p * z)
    poly = ((((a5 * t + a4) * t + a3) * t + a2) * t + a1) * t
    return s * (1.0 - poly * np.exp(-z * z))


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))
