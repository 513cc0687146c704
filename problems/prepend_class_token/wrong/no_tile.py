import numpy as np


def prepend_class_token(patches: np.ndarray, cls_token: np.ndarray) -> np.ndarray:
    return np.concatenate([cls_token, patches], axis=1)
