import numpy as np


def image_to_patches(images: np.ndarray, patch_size: int) -> np.ndarray:
    batch, height, width, channels = images.shape
    n_patches = (height // patch_size) * (width // patch_size)
    # "The total size matches, so reshape will put everything in place."
    return images.reshape(batch, n_patches, patch_size * patch_size * channels).copy()
