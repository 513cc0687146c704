import numpy as np


def causal_mask(length):
    return np.triu(np.full((length, length), -np.inf))
