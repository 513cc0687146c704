import numpy as np


def stable_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    moved = np.moveaxis(x, axis, -1)
    shifted = moved - moved.max(-1)[..., None]
    num = np.exp(shifted)
    den = num.sum(-1)[..., None]
    return np.moveaxis(num / den, -1, axis)
