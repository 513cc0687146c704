import numpy as np


def _split_heads(t: np.ndarray, n_heads: int) -> np.ndarray:
    batch, length, width = t.shape  # (B, L, D) -> (B, H, L, d)
    return t.reshape(batch, length, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def _merge_heads(t: np.ndarray) -> np.ndarray:
    batch, n_heads, length, d_head = t.shape  # (B, H, L, d) -> (B, L, D)
    return t.transpose(0, 2, 1, 3).reshape(batch, length, n_heads * d_head)


def _weight_gradient(inputs: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """x^T g summed over every (batch, position) row: the gradient of a weight used by every token."""
    return inputs.reshape(-1, inputs.shape[-1]).T @ grad.reshape(-1, grad.shape[-1])


def multi_head_attention_backward(x, w_q, w_k, w_v, w_o, n_heads, mask, grad_out):
    d_head = x.shape[-1] // n_heads
    q, k, v = (_split_heads(x @ w, n_heads) for w in (w_q, w_k, w_v))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head) + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    merged = _merge_heads(weights @ v)

    grad_heads = _split_heads(grad_out @ w_o.T, n_heads)
    grad_v = np.swapaxes(weights, -1, -2) @ grad_heads
    grad_weights = grad_heads @ np.swapaxes(v, -1, -2)
    grad_scores = weights * (grad_weights - np.sum(grad_weights * weights, axis=-1, keepdims=True)) / np.sqrt(d_head)
    grad_q, grad_k, grad_v = (_merge_heads(g) for g in (grad_scores @ k, np.swapaxes(grad_scores, -1, -2) @ q, grad_v))
    return (grad_q @ w_q.T + grad_k @ w_k.T + grad_v @ w_v.T, _weight_gradient(x, grad_q),
            _weight_gradient(x, grad_k), _weight_gradient(x, grad_v), _weight_gradient(merged, grad_out))
