import numpy as np


def stable_softmax(x, axis):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
