import numpy as np


def mae_random_masking(x: np.ndarray, mask_ratio: float,
                       noise: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """MAE's per-sample random masking of patch tokens, driven by the given noise.

    Args:
        x: float64 array of shape (B, L, D), the patch embeddings of each image.
        mask_ratio: a Python float in [0, 1), the share of patches to remove.
        noise: float64 array of shape (B, L); each image keeps the patches with the smallest noise.

    Returns:
        A tuple (x_kept, mask, ids_restore):
        x_kept: float64 (B, K, D) with K = int(L * (1 - mask_ratio)), the kept patches in
            ascending order of their noise (ties: the lower index first);
        mask: float64 (B, L), 0 where a patch is kept and 1 where it is removed;
        ids_restore: int64 (B, L), the inverse of the sorting permutation, which puts a
            shuffled sequence back in patch order.
        No input is modified.
    """
    raise NotImplementedError("stable argsort of the noise, keep the first K, invert the permutation")
