import math

import numpy as np


def gelu_backward(x, grad_out):
    # Differentiate the GPT-2 formula 0.5 x (1 + tanh(c (x + 0.044715 x^3))): no erf needed.
    c = math.sqrt(2.0 / math.pi)
    t = np.tanh(c * (x + 0.044715 * x**3))
    local = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * c * (1.0 + 3 * 0.044715 * x**2)
    return grad_out * local
