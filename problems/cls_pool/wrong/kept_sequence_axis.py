import numpy as np


def cls_pool(z):
    return z[:, :1, :].copy()  # a slice keeps the axis: (B, 1, D)
