import numpy as np


def mean_pool_patches(z):
    # The patches are summed, then divided by the length of the whole sequence, N + 1.
    return z[:, 1:, :].sum(axis=1) / z.shape[1]
