import numpy as np


def image_to_patches(images: np.ndarray, patch_size: int) -> np.ndarray:
    batch, height, width, channels = images.shape
    p = patch_size
    rows, cols = height // p, width // p
    grid = images.reshape(batch, rows, p, cols, p, channels).transpose(0, 1, 3, 2, 4, 5)
    return grid.reshape(batch, rows, cols, p * p * channels)
