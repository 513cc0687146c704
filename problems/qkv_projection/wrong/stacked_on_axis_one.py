import numpy as np


def qkv_projection(x, w_q, w_k, w_v):
    # Keep the batch first, then Q/K/V.
    return np.stack([x @ w_q, x @ w_k, x @ w_v], axis=1)
