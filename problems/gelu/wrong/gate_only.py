import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu(x):
    # The Gaussian CDF Phi(x): the gate, but never multiplied by x.
    return 0.5 * (1.0 + _erf(x / math.sqrt(2.0)))
