import numpy as np

TILE = 256  # output columns dequantised at a time: 256 float64 columns of q at most


def int8_linear(x: np.ndarray, q: np.ndarray, scale: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Reference: x @ (q * scale) + bias, dequantising q one tile of output columns at a time."""
    out = np.empty(x.shape[:-1] + (q.shape[1],))
    for start in range(0, q.shape[1], TILE):
        columns = slice(start, start + TILE)
        tile = q[:, columns] * scale[columns]  # float64 (in, <= TILE): the only float copy of q
        out[..., columns] = x @ tile + bias[columns]
    return out
