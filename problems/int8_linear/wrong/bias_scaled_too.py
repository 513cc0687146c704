import numpy as np

TILE = 256


def int8_linear(x, q, scale, bias):
    out = np.empty(x.shape[:-1] + (q.shape[1],))
    for start in range(0, q.shape[1], TILE):
        columns = slice(start, start + TILE)
        # The scale applied after the bias: the bias is in the output's units already.
        out[..., columns] = (x @ q[:, columns].astype(np.float64) + bias[columns]) * scale[columns]
    return out
