import numpy as np


def mae_random_masking(x, mask_ratio, noise):
    batch, length, _ = x.shape
    keep = int(length * (1 - mask_ratio))
    ids_shuffle = np.argsort(noise, axis=1, kind="stable")
    mask = np.ones((batch, length))
    mask[:, :keep] = 0.0
    # The sorting permutation itself returned, and used, where its inverse belongs.
    return (np.take_along_axis(x, ids_shuffle[:, :keep, None], axis=1),
            np.take_along_axis(mask, ids_shuffle, axis=1), ids_shuffle)
