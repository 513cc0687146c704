import numpy as np


def stable_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    shifted = x - np.max(x, axis=axis, keepdims=True)
    exps = np.exp(shifted)
    total = np.sum(exps, axis=axis, keepdims=True)
    return exps / total
