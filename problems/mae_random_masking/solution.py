import numpy as np


def mae_random_masking(x: np.ndarray, mask_ratio: float,
                       noise: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Reference: MAE's random_masking, keeping the patches of smallest noise (ties in index order)."""
    batch, length, _ = x.shape
    keep = int(length * (1 - mask_ratio))  # exactly MAE's expression, float rounding included
    ids_shuffle = np.argsort(noise, axis=1, kind="stable")  # ascending: small noise is kept
    ids_restore = np.argsort(ids_shuffle, axis=1).astype(np.int64)  # the inverse permutation
    x_kept = np.take_along_axis(x, ids_shuffle[:, :keep, None], axis=1)
    mask = np.ones((batch, length))
    mask[:, :keep] = 0.0
    mask = np.take_along_axis(mask, ids_restore, axis=1)  # back to the patches' own order
    return x_kept, mask, ids_restore
