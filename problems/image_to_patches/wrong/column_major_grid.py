import numpy as np


def image_to_patches(images: np.ndarray, patch_size: int) -> np.ndarray:
    batch, height, width, channels = images.shape
    p = patch_size
    rows, cols = height // p, width // p
    grid = images.reshape(batch, rows, p, cols, p, channels)
    # Grid columns before grid rows: patches are numbered down each column.
    grid = grid.transpose(0, 3, 1, 2, 4, 5)
    return grid.reshape(batch, rows * cols, p * p * channels)
