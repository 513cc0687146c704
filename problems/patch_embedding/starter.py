import numpy as np


def patch_embedding(patches: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Project every flattened patch to a D-dimensional embedding.

    Args:
        patches: float64 array of shape (B, N, P): B images, N patches each,
            every patch flattened to P = patch_size * patch_size * channels values.
        weight: float64 array of shape (P, D), shared by every patch.
        bias: float64 array of shape (D,).

    Returns:
        A new float64 array of shape (B, N, D) with out[b, n] = patches[b, n] @ weight + bias.
        No input may be modified.
    """
    raise NotImplementedError("project the patches here")
