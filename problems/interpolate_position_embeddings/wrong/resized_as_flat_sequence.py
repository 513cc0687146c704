import numpy as np


def interpolate_position_embeddings(pos_embed, new_grid):
    _, length, width = pos_embed.shape
    n_old = length - 1
    n_new = int(new_grid[0]) * int(new_grid[1])
    # Stretch the g*g patch rows like a 1-D signal to h*w rows, half-pixel centres.
    source = (np.arange(n_new) + 0.5) * (n_old / n_new) - 0.5
    patches = pos_embed[0, 1:]
    resized = np.stack([np.interp(source, np.arange(n_old), patches[:, d]) for d in range(width)], axis=1)
    return np.concatenate([pos_embed[:, :1], resized[None]], axis=1)
