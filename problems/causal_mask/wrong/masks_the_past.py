import numpy as np


def causal_mask(length):
    # block everything on the other side of the diagonal
    return np.tril(np.full((length, length), -np.inf), k=-1)
