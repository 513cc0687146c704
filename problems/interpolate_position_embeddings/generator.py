"""Deterministic test cases for interpolate_position_embeddings.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state, so the same seed always yields the same cases. ``new_grid``
is a float64 array of two whole numbers, (h, w).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, pos_embed: np.ndarray, h: int, w: int) -> dict:
    return {
        "name": name,
        "hidden": hidden,
        "args": {
            "pos_embed": np.ascontiguousarray(pos_embed, dtype=np.float64),
            "new_grid": np.array([h, w], dtype=np.float64),
        },
        "shape": (1, 1 + h * w, pos_embed.shape[2]),
    }


def _table(rng: np.random.Generator, g: int, width: int, scale: float = 0.02) -> np.ndarray:
    # A learned ViT table starts as N(0, 0.02^2); after training it is smooth over the grid, so
    # add a smooth ramp per feature to random noise: interpolation then means something.
    rows, cols = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
    slopes = rng.standard_normal((2, width))
    smooth = (rows.reshape(-1, 1) * slopes[0] + cols.reshape(-1, 1) * slopes[1]) / max(g, 1)
    grid = scale * (smooth + rng.standard_normal((g * g, width)))
    class_row = scale * rng.standard_normal((1, width)) + 1.0   # far from the grid values
    return np.concatenate([class_row, grid])[None]


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_1_widen", False, np.array([[[9.0], [0.0], [1.0], [2.0], [3.0]]]), 2, 4)
    cells = [[3.0 * r + c, float(r)] for r in range(3) for c in range(3)]
    yield _case("example_2_shrink", False, np.array([[[-1.0, -1.0], *cells]]), 2, 2)

    # Hidden. The first upsamples both axes to different sizes (h != w), so each known-wrong
    # variant (corner alignment, unclamped edge, swapped axes, ...) already shows there.
    g = int(rng.integers(3, 6))
    h, w = g + int(rng.integers(2, 4)), g + int(rng.integers(4, 7))
    yield _case("random_upsample", True, _table(rng, g, int(rng.integers(3, 9))), h, w)

    # The ViT fine-tuning case: ViT-B/16 pre-trained at 224 (14 x 14 patches) fine-tuned at 384
    # (24 x 24 patches): (1, 197, 768) -> (1, 577, 768).
    yield _case("vit_b16_224_to_384", True, _table(rng, 14, 768), 24, 24)
    # And at a lower resolution, 224 -> 112: 14 x 14 -> 7 x 7.
    yield _case("vit_downsample_14_to_7", True, _table(rng, 14, 64), 7, 7)

    yield _case("non_integer_ratio", True, _table(rng, 7, 16), 12, 10)
    yield _case("taller_and_narrower", True, _table(rng, 6, 8), 9, 4)
    yield _case("same_grid_is_identity", True, _table(rng, 5, 12), 5, 5)
    yield _case("width_one", True, _table(rng, 4, 1), 5, 3)

    # Extremes of the grid: from one cell, to one cell, to one row.
    yield _case("from_single_cell", True, _table(rng, 1, 6), 3, 4)
    yield _case("to_single_cell", True, _table(rng, 4, 5), 1, 1)
    yield _case("to_single_row", True, _table(rng, 3, 4), 1, 6)

    yield _case("large_magnitudes", True, _table(rng, 5, 10, scale=1e4), 8, 8)

    g = int(rng.integers(1, 11))
    h, w = int(rng.integers(1, 17)), int(rng.integers(1, 17))
    yield _case("random_any_size", True, _table(rng, g, int(rng.integers(1, 33))), h, w)
