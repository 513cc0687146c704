import numpy as np


def stable_softmax(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    ex = np.exp(x - m)
    s = ex.sum(axis=axis, keepdims=True)
    return ex / s
