import numpy as np


def mean_pool_patches(z):
    return z[:, :-1, :].mean(axis=1)  # treats the class token as if it came last
