import numpy as np


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    x = x.astype(np.float64)
    d = x.shape[-1]
    s = x.sum(-1)[..., None]
    m = s / d
    diff = x - m
    sq = (diff ** 2).sum(-1)[..., None] / d
    inv = 1.0 / (sq + eps) ** 0.5
    out = diff * inv
    out = out * gamma
    out = out + beta
    return out
