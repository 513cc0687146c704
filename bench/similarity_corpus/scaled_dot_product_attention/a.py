import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None):
    dk = Q.shape[-1]
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / np.sqrt(dk)
    if mask is not None:
        scores = scores + mask
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    e = np.exp(scores)
    attn = e / np.sum(e, axis=-1, keepdims=True)
    return np.matmul(attn, V)
