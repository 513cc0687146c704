import numpy as np


def patch_embedding(patches: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Reference: one matrix product over the last axis, then the bias on the feature axis."""
    # matmul treats (B, N, P) as a stack of (N, P) matrices, so no loop over the batch;
    # the (D,) bias broadcasts over batch and patch axes. Both operations allocate.
    return np.asarray(patches @ weight + bias, dtype=np.float64)
