import numpy as np


def stable_softmax(x, axis):
    shifted = x - x.max(axis=axis)
    e = np.exp(shifted)
    return e / e.sum(axis=axis)
