import math

import numpy as np


def swiglu(x, w_gate, w_up, w_down):
    gate = x @ w_gate
    gelu = 0.5 * gate * (1.0 + np.vectorize(math.erf)(gate / math.sqrt(2.0)))
    return (gelu * (x @ w_up)) @ w_down
