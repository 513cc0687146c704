import numpy as np


def prepend_class_token(patches: np.ndarray, cls_token: np.ndarray) -> np.ndarray:
    _, n_patches, width = patches.shape
    token_row = np.broadcast_to(cls_token, (1, n_patches, width))
    return np.concatenate([token_row, patches], axis=0)
