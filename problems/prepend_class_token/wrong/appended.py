import numpy as np


def prepend_class_token(patches: np.ndarray, cls_token: np.ndarray) -> np.ndarray:
    batch = patches.shape[0]
    tiled = np.tile(cls_token, (batch, 1, 1))
    return np.concatenate([patches, tiled], axis=1)
