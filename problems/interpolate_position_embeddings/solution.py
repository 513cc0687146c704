import math

import numpy as np


def _sample_positions(n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each output index along one axis: the two input neighbours and the weight of the second.

    Half-pixel centres (align_corners=False): output cell i covers the same fraction of the axis
    as input coordinate (i + 0.5) * n_in / n_out - 0.5. Coordinates left of the first centre are
    clamped to it; right of the last centre, both neighbours are the last cell.
    """
    source = (np.arange(n_out, dtype=np.float64) + 0.5) * (n_in / n_out) - 0.5
    source = np.maximum(source, 0.0)
    low = np.minimum(np.floor(source).astype(np.intp), n_in - 1)
    high = np.minimum(low + 1, n_in - 1)
    weight_high = np.clip(source - low, 0.0, 1.0)
    return low, high, weight_high


def interpolate_position_embeddings(pos_embed: np.ndarray, new_grid: np.ndarray) -> np.ndarray:
    """Reference: keep the class row, resize the g x g grid of rows bilinearly to h x w."""
    _, length, width = pos_embed.shape
    old = math.isqrt(length - 1)
    new_h, new_w = int(new_grid[0]), int(new_grid[1])
    class_row = pos_embed[:, :1, :]                           # (1, 1, D)
    grid = pos_embed[0, 1:, :].reshape(old, old, width)       # (g, g, D), row-major like the patches

    top, bottom, wy = _sample_positions(old, new_h)
    rows = grid[top] * (1.0 - wy)[:, None, None] + grid[bottom] * wy[:, None, None]      # (h, g, D)
    left, right, wx = _sample_positions(old, new_w)
    cells = rows[:, left] * (1.0 - wx)[None, :, None] + rows[:, right] * wx[None, :, None]  # (h, w, D)

    resized = cells.reshape(1, new_h * new_w, width)
    return np.concatenate([class_row, resized], axis=1).astype(np.float64, copy=False)
