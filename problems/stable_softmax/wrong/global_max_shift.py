import numpy as np


def stable_softmax(x, axis):
    shifted = x - x.max()  # one shift for the whole array
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)
