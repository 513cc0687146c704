import numpy as np


def interpolate_position_embeddings(pos_embed: np.ndarray, new_grid: np.ndarray) -> np.ndarray:
    """Resize a ViT position table from a g x g patch grid to an h x w one.

    Args:
        pos_embed: float64 array of shape (1, 1 + g * g, D). Row 0 belongs to the
            class token; rows 1 .. g * g are the grid cells in row-major order.
        new_grid: float64 array of shape (2,) holding whole numbers (h, w), rows
            first; use int(new_grid[0]) and int(new_grid[1]).

    Returns:
        A new float64 array of shape (1, 1 + h * w, D): row 0 copied unchanged,
        then the h x w grid, row-major, resized bilinearly with half-pixel centres
        (like torch's F.interpolate(..., mode="bilinear", align_corners=False)):
        output index i on an axis of n_in -> n_out cells reads input coordinate
        max(0, (i + 0.5) * n_in / n_out - 0.5), neighbours clamped to the grid.
        No input may be modified.
    """
    raise NotImplementedError("resize the grid rows here")
