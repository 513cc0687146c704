import numpy as np


def patch_embedding(patches: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    flat = patches.reshape(-1, patches.shape[-1])  # (B*N, P): a plain 2-D matmul
    return flat @ weight + bias
