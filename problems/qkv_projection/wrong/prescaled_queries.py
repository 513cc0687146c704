import numpy as np


def qkv_projection(x, w_q, w_k, w_v):
    d_k = w_q.shape[1]
    q = (x @ w_q) / np.sqrt(d_k)  # fold the attention scale in early
    return np.stack([q, x @ w_k, x @ w_v])
