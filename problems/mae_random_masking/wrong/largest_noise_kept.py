import numpy as np


def mae_random_masking(x, mask_ratio, noise):
    batch, length, _ = x.shape
    keep = int(length * (1 - mask_ratio))
    ids_shuffle = np.argsort(-noise, axis=1, kind="stable")  # descending: the largest noise first
    ids_restore = np.argsort(ids_shuffle, axis=1)
    mask = np.ones((batch, length))
    mask[:, :keep] = 0.0
    return (np.take_along_axis(x, ids_shuffle[:, :keep, None], axis=1),
            np.take_along_axis(mask, ids_restore, axis=1), ids_restore)
