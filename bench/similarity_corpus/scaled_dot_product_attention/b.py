import numpy as np


def softmax(z):
    z = z - z.max(-1, keepdims=True)
    ez = np.exp(z)
    return ez / ez.sum(-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None):
    logits = np.einsum("...qd,...kd->...qk", Q, K) * (1.0 / Q.shape[-1] ** 0.5)
    if mask is None:
        mask = 0.0
    p = softmax(logits + mask)
    return np.einsum("...qk,...kv->...qv", p, V)
