import numpy as np


def image_to_patches(images: np.ndarray, patch_size: int) -> np.ndarray:
    """Cut every image into non-overlapping square patches and flatten each one.

    Args:
        images: float64 array of shape (B, H, W, C), channels last. H and W are
            multiples of patch_size.
        patch_size: the side P of a square patch, a plain Python int >= 1.

    Returns:
        A new float64 array of shape (B, N, P * P * C) with N = (H / P) * (W / P).
        Patches are numbered row-major over the grid (left to right, then top to
        bottom); each patch vector lists its pixels in (row, column, channel)
        order. The input must not be modified.
    """
    raise NotImplementedError("split the image into patches here")
