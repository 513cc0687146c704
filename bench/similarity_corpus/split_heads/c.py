import numpy as np


def split_heads(x, n_heads):
    batch = x.shape[0]
    seq = x.shape[1]
    width = x.shape[2] // n_heads
    out = np.zeros((batch, n_heads, seq, width))
    for h in range(n_heads):
        out[:, h, :, :] = x[:, :, h * width:(h + 1) * width]
    return out
