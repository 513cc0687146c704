import math

import numpy as np


def _positions(n_in, n_out):
    source = np.maximum((np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5, 0.0)
    low = np.minimum(np.floor(source).astype(int), n_in - 1)
    high = np.minimum(low + 1, n_in - 1)
    return low, high, np.clip(source - low, 0.0, 1.0)


def interpolate_position_embeddings(pos_embed, new_grid):
    _, length, width = pos_embed.shape
    g = math.isqrt(length - 1)
    h, w = int(new_grid[0]), int(new_grid[1])
    # Ported from torch code that wants (1, D, g, g) for F.interpolate, minus the permute.
    grid = pos_embed[0, 1:].reshape(width, g, g).transpose(1, 2, 0)
    top, bottom, wy = _positions(g, h)
    rows = grid[top] * (1 - wy)[:, None, None] + grid[bottom] * wy[:, None, None]
    left, right, wx = _positions(g, w)
    cells = rows[:, left] * (1 - wx)[None, :, None] + rows[:, right] * wx[None, :, None]
    return np.concatenate([pos_embed[:, :1], cells.reshape(1, h * w, width)], axis=1)
