import numpy as np


def stable_softmax(x, axis):
    x -= x.max(axis=axis, keepdims=True)  # avoid a temporary copy
    np.exp(x, out=x)
    return x / x.sum(axis=axis, keepdims=True)
