import math

import numpy as np


def _positions(n_in, n_out):
    source = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5   # may be negative near the edge
    low = np.floor(source).astype(int)                          # -1 there: NumPy wraps to the last cell
    high = np.minimum(low + 1, n_in - 1)
    return low, high, source - low


def interpolate_position_embeddings(pos_embed, new_grid):
    _, length, width = pos_embed.shape
    g = math.isqrt(length - 1)
    h, w = int(new_grid[0]), int(new_grid[1])
    grid = pos_embed[0, 1:].reshape(g, g, width)
    top, bottom, wy = _positions(g, h)
    rows = grid[top] * (1 - wy)[:, None, None] + grid[bottom] * wy[:, None, None]
    left, right, wx = _positions(g, w)
    cells = rows[:, left] * (1 - wx)[None, :, None] + rows[:, right] * wx[None, :, None]
    return np.concatenate([pos_embed[:, :1], cells.reshape(1, h * w, width)], axis=1)
