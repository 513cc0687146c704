import numpy as np


def qkv_projection(x, w_q, w_k, w_v):
    # nn.Linear computes x @ W.T
    return np.stack([x @ w_q.T, x @ w_k.T, x @ w_v.T])
