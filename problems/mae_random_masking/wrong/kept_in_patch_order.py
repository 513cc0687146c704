import numpy as np


def mae_random_masking(x, mask_ratio, noise):
    batch, length, _ = x.shape
    keep = int(length * (1 - mask_ratio))
    ids_shuffle = np.argsort(noise, axis=1, kind="stable")
    ids_restore = np.argsort(ids_shuffle, axis=1)
    mask = np.ones((batch, length))
    mask[:, :keep] = 0.0
    mask = np.take_along_axis(mask, ids_restore, axis=1)
    # The right patches, but in their order in the image instead of the shuffled order.
    ids_keep = np.sort(ids_shuffle[:, :keep], axis=1)
    return np.take_along_axis(x, ids_keep[..., None], axis=1), mask, ids_restore
