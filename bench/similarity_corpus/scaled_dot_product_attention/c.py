import math

import numpy as np


def scaled_dot_product_attention(Q, K, V, mask=None):
    """softmax(QK^T/sqrt(d))V"""
    KT = K.swapaxes(-1, -2)
    s = Q @ KT
    s /= math.sqrt(K.shape[-1])
    if mask is not None:
        s += mask
    top = s.max(axis=-1)[..., np.newaxis]
    w = np.exp(s - top)
    w /= w.sum(axis=-1)[..., np.newaxis]
    out = w @ V
    return out
