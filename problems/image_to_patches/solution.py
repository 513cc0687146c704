import numpy as np


def image_to_patches(images: np.ndarray, patch_size: int) -> np.ndarray:
    """Reference: split both spatial axes, bring the grid axes forward, flatten."""
    batch, height, width, channels = images.shape
    p = patch_size
    rows, cols = height // p, width // p
    # (B, H, W, C) -> (B, rows, P, cols, P, C): a view, no data moves yet.
    grid = images.reshape(batch, rows, p, cols, p, channels)
    # (B, rows, cols, P, P, C): grid position first, then the pixels inside a patch.
    grid = grid.transpose(0, 1, 3, 2, 4, 5)
    # The reshape of a non-contiguous view copies, so the caller's array is never shared.
    return np.ascontiguousarray(grid.reshape(batch, rows * cols, p * p * channels), dtype=np.float64)
