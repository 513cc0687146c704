import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _gelu(h):
    return 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))


def feed_forward(x, w1, b1, w2, b2):
    h = _gelu(x @ w1) + b1  # the first bias added after the activation
    return h @ w2 + b2
