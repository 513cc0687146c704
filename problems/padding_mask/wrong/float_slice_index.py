import numpy as np


def padding_mask(lengths, max_len):
    mask = np.zeros((len(lengths), 1, 1, max_len))
    for b in range(len(lengths)):
        mask[b, :, :, lengths[b]:] = -np.inf
    return mask
