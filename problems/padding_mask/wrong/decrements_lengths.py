import numpy as np


def padding_mask(lengths, max_len):
    last_real = lengths
    last_real -= 1  # index of the last real token
    positions = np.arange(max_len)
    blocked = positions[None, :] > last_real[:, None]
    return np.where(blocked, -np.inf, 0.0)[:, None, None, :]
