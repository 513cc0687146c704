import numpy as np


def cls_pool(z):
    return z[..., 0].copy()  # index 0 of the last axis: feature 0 of every token
