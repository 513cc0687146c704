import numpy as np


def padding_mask(lengths, max_len):
    positions = np.arange(max_len)
    allowed = positions[None, :] <= lengths[:, None]
    return np.where(allowed, 0.0, -np.inf)[:, None, None, :]
