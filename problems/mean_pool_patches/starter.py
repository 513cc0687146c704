import numpy as np


def mean_pool_patches(z: np.ndarray) -> np.ndarray:
    """Global average pooling of the patch tokens, without the class token.

    Args:
        z: float64 array of shape (B, N + 1, D): the encoder's output, the class
            token at position 0 followed by N >= 1 patch tokens.

    Returns:
        A new float64 array of shape (B, D): row b is the mean of z[b, 1], ..., z[b, N].
        z is not modified.
    """
    raise NotImplementedError("average the patch positions 1..N of every sequence")
