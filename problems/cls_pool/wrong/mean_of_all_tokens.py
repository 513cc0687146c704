import numpy as np


def cls_pool(z):
    return z.mean(axis=1)  # averages the class token together with every patch
