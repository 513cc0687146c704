"""Deterministic test cases for image_to_patches.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state, so the same seed always yields the same cases.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, images: np.ndarray, patch_size: int) -> dict:
    batch, height, width, channels = images.shape
    n_patches = (height // patch_size) * (width // patch_size)
    return {
        "name": name,
        "hidden": hidden,
        "args": {"images": np.ascontiguousarray(images, dtype=np.float64), "patch_size": int(patch_size)},
        "shape": (batch, n_patches, patch_size * patch_size * channels),
    }


def _images(rng: np.random.Generator, batch: int, rows: int, cols: int, p: int, channels: int) -> np.ndarray:
    # Pixel intensities in [0, 1), as after the usual /255 scaling.
    return rng.random((batch, rows * p, cols * p, channels))


def _draw(rng: np.random.Generator, low: int, high: int) -> int:
    return int(rng.integers(low, high + 1))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_1", False, np.arange(16.0).reshape(1, 4, 4, 1), 2)
    values = np.arange(1.0, 9.0).reshape(1, 2, 4, 1)
    yield _case("example_2_two_channels", False, np.concatenate([values, -values], axis=-1), 2)

    # Hidden. The first one has P >= 2, C >= 2 and a grid of at least 2 x 2, so every
    # known-wrong layout already differs from the right one there.
    p, rows, cols, channels = _draw(rng, 2, 3), _draw(rng, 2, 4), _draw(rng, 2, 4), _draw(rng, 2, 3)
    yield _case("random_small", True, _images(rng, _draw(rng, 2, 3), rows, cols, p, channels), p)

    # Non-square grids: a wide one, and a one-column strip (where a lone reshape happens to work).
    yield _case("wide_grid_rgb", True, _images(rng, 2, 3, 5, 2, 3), 2)
    yield _case("tall_strip", True, _images(rng, 2, 4, 1, 3, 2), 3)

    # Edge cases: one-pixel patches, one patch per image, one channel, one image.
    yield _case("patch_size_one", True, _images(rng, 2, 3, 4, 1, 3), 1)
    yield _case("single_patch_per_image", True, _images(rng, 3, 1, 1, 5, 2), 5)
    yield _case("grayscale", True, _images(rng, 2, 3, 3, 4, 1), 4)
    yield _case("batch_of_one_rgba", True, _images(rng, 1, 4, 6, 8, 4), 8)

    # Values of every magnitude and sign: a copy must keep them bit for bit.
    magnitudes = 10.0 ** rng.integers(-6, 7, size=(2, 6, 9, 3))
    signs = rng.choice([-1.0, 1.0], size=magnitudes.shape)
    yield _case("mixed_magnitudes", True, signs * magnitudes, 3)

    # ViT-B/16: a 224 x 224 RGB image cut into 16 x 16 patches -> 196 patches of 768 values.
    yield _case("vit_b16_224", True, _images(rng, 2, 14, 14, 16, 3), 16)

    p, rows, cols = _draw(rng, 1, 5), _draw(rng, 1, 6), _draw(rng, 1, 6)
    yield _case("random_any_size", True, _images(rng, _draw(rng, 1, 4), rows, cols, p, _draw(rng, 1, 4)), p)
