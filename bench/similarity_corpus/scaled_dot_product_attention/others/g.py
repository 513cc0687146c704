import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None):
    dk = K.shape[-1]
    s = Q @ np.swapaxes(K, -2, -1) / np.sqrt(dk)
    if mask is not None:
        s = s + mask
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(axis=-1, keepdims=True)
    return p @ V
