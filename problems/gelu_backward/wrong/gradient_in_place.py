import math

import numpy as np

erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu_backward(x, grad_out):
    phi = np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
    grad_out *= 0.5 * (1.0 + erf(x / math.sqrt(2.0))) + x * phi  # saves a copy of a big array
    return grad_out
