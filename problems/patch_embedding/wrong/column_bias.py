import numpy as np


def patch_embedding(patches: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    # y = W x + b with b a column vector.
    return patches @ weight + bias.reshape(-1, 1)
