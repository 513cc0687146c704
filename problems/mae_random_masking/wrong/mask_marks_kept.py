import numpy as np


def mae_random_masking(x, mask_ratio, noise):
    batch, length, _ = x.shape
    keep = int(length * (1 - mask_ratio))
    ids_shuffle = np.argsort(noise, axis=1, kind="stable")
    ids_restore = np.argsort(ids_shuffle, axis=1)
    mask = np.zeros((batch, length))
    mask[:, :keep] = 1.0  # 1 for the visible patches
    return (np.take_along_axis(x, ids_shuffle[:, :keep, None], axis=1),
            np.take_along_axis(mask, ids_restore, axis=1), ids_restore)
