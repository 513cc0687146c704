import numpy as np


def cls_pool(z):
    return z[0].copy()  # the first entry of the first axis: the whole first sequence
