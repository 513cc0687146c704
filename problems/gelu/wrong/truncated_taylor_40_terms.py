import math

import numpy as np


def _erf(z):
    # Maclaurin series 2/sqrt(pi) * sum (-1)^n z^(2n+1) / (n! (2n+1)), first 40 terms: more terms,
    # still one series for every z.
    total = np.zeros_like(z)
    for n in range(40):
        total = total + (-1) ** n * z ** (2 * n + 1) / (math.factorial(n) * (2 * n + 1))
    return 2.0 / math.sqrt(math.pi) * total


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))
