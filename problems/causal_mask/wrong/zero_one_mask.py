import numpy as np


def causal_mask(length):
    # 1 = may attend, 0 = blocked
    return np.tril(np.ones((length, length)))
