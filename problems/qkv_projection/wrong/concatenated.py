import numpy as np


def qkv_projection(x, w_q, w_k, w_v):
    # One wide matrix, like GPT-2's fused c_attn projection.
    return np.concatenate([x @ w_q, x @ w_k, x @ w_v], axis=-1)
