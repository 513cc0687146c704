import numpy as np


def image_to_patches(images: np.ndarray, patch_size: int) -> np.ndarray:
    batch, height, width, channels = images.shape
    p = patch_size
    rows, cols = height // p, width // p
    grid = images.reshape(batch, rows, p, cols, p, channels)
    # Patch laid out as (C, P, P), the way a PyTorch conv weight is stored.
    grid = grid.transpose(0, 1, 3, 5, 2, 4)
    return grid.reshape(batch, rows * cols, p * p * channels)
