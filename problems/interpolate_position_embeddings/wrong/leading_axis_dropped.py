import math

import numpy as np


def _positions(n_in, n_out):
    source = np.maximum((np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5, 0.0)
    low = np.minimum(np.floor(source).astype(int), n_in - 1)
    high = np.minimum(low + 1, n_in - 1)
    return low, high, np.clip(source - low, 0.0, 1.0)


def interpolate_position_embeddings(pos_embed, new_grid):
    table = pos_embed[0]                    # (1 + g*g, D): easier without the batch axis
    g = math.isqrt(table.shape[0] - 1)
    h, w = int(new_grid[0]), int(new_grid[1])
    grid = table[1:].reshape(g, g, -1)
    top, bottom, wy = _positions(g, h)
    rows = grid[top] * (1 - wy)[:, None, None] + grid[bottom] * wy[:, None, None]
    left, right, wx = _positions(g, w)
    cells = rows[:, left] * (1 - wx)[None, :, None] + rows[:, right] * wx[None, :, None]
    return np.concatenate([table[:1], cells.reshape(h * w, -1)], axis=0)
