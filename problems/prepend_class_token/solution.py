import numpy as np


def prepend_class_token(patches: np.ndarray, cls_token: np.ndarray) -> np.ndarray:
    """Reference: tile the shared token over the batch, then join on the sequence axis."""
    batch, _, width = patches.shape
    tiled = np.broadcast_to(cls_token, (batch, 1, width))
    # np.concatenate always allocates a new array, so the inputs stay untouched.
    return np.concatenate([tiled, patches], axis=1).astype(np.float64, copy=False)
