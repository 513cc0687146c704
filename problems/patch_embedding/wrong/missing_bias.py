import numpy as np


def patch_embedding(patches: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    return patches @ weight
