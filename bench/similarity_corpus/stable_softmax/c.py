import numpy as np


def stable_softmax(x, axis):
    # log-sum-exp trick
    biggest = np.amax(x, axis=axis, keepdims=True)
    logz = biggest + np.log(np.sum(np.exp(x - biggest), axis=axis, keepdims=True))
    return np.exp(x - logz)
