import numpy as np


def _transpose(a: np.ndarray) -> np.ndarray:
    return a.T


def attention_backward(q, k, v, grad_out, mask=None):
    scale = 1.0 / np.sqrt(q.shape[-1])
    scores = (q @ _transpose(k)) * scale
    if mask is not None:
        scores = scores + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    grad_v = _transpose(weights) @ grad_out
    grad_weights = grad_out @ _transpose(v)
    grad_scores = weights * (grad_weights - np.sum(grad_weights * weights, axis=-1, keepdims=True))
    return (grad_scores @ k) * scale, (_transpose(grad_scores) @ q) * scale, grad_v
