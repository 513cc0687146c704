import numpy as np


def padding_mask(lengths, max_len):
    # padding goes in front, so the real tokens are the last lengths[b] positions
    positions = np.arange(max_len)
    blocked = positions[None, :] < max_len - lengths[:, None]
    return np.where(blocked, -np.inf, 0.0)[:, None, None, :]
