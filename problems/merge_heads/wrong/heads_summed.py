import numpy as np


def merge_heads(x):
    # combine the heads' outputs
    return x.sum(axis=1)
