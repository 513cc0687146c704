import numpy as np


def prepend_class_token(patches: np.ndarray, cls_token: np.ndarray) -> np.ndarray:
    patches[:, 0, :] = cls_token[0, 0, :]
    return patches
