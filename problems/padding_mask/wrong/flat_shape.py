import numpy as np


def padding_mask(lengths, max_len):
    positions = np.arange(max_len)
    return np.where(positions[None, :] < lengths[:, None], 0.0, -np.inf)
