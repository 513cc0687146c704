"""Deterministic test cases for patch_embedding.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state, so the same seed always yields the same cases.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, patches: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> dict:
    return {
        "name": name,
        "hidden": hidden,
        "args": {
            "patches": np.ascontiguousarray(patches, dtype=np.float64),
            "weight": np.ascontiguousarray(weight, dtype=np.float64),
            "bias": np.ascontiguousarray(bias, dtype=np.float64),
        },
        "shape": (patches.shape[0], patches.shape[1], weight.shape[1]),
    }


def _layer(rng: np.random.Generator, p: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    # Roughly the scale of a trained projection: weights ~ 1/sqrt(P), small biases.
    return rng.standard_normal((p, d)) / np.sqrt(p), 0.1 * rng.standard_normal(d)


def _random(rng: np.random.Generator, batch: int, n: int, p: int, d: int) -> tuple:
    return (rng.random((batch, n, p)), *_layer(rng, p, d))


def _patchify(images: np.ndarray, p: int) -> np.ndarray:
    # The previous problem's cut: row-major grid, (row, column, channel) inside a patch.
    b, h, w, c = images.shape
    grid = images.reshape(b, h // p, p, w // p, p, c).transpose(0, 1, 3, 2, 4, 5)
    return grid.reshape(b, (h // p) * (w // p), p * p * c)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case(
        "example_1",
        False,
        np.array([[[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]]]),
        np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
        np.array([0.5, -0.5]),
    )
    yield _case(
        "example_2_zero_patch",
        False,
        np.array([[[1.0, 2.0]], [[0.0, 0.0]]]),
        np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 2.0]]),
        np.array([0.1, 0.2, 0.3]),
    )

    # Hidden. The first has N, P and D all different (and N > 1), so each mistake shows
    # the same way whatever the seed draws.
    n, d, p = int(rng.integers(3, 6)), int(rng.integers(6, 9)), int(rng.integers(9, 17))
    yield _case("random_small", True, *_random(rng, int(rng.integers(2, 4)), n, p, d))

    # Real patches: a 32 x 32 RGB batch cut into 8 x 8 patches -> (2, 16, 192).
    images = rng.random((2, 32, 32, 3))
    yield _case("patches_of_rgb_images", True, _patchify(images, 8), *_layer(rng, 192, 24))

    yield _case("single_patch", True, *_random(rng, 3, 1, 12, 5))
    yield _case("embedding_width_one", True, *_random(rng, 2, 6, 4, 1))
    yield _case("one_pixel_grayscale_patches", True, *_random(rng, 2, 9, 1, 7))
    yield _case("batch_of_one", True, *_random(rng, 1, 10, 27, 16))

    _, weight, bias = _random(rng, 1, 1, 12, 6)
    yield _case("zero_patches_give_the_bias", True, np.zeros((2, 5, 12)), weight, bias)
    yield _case("zero_weight_gives_the_bias", True, rng.random((2, 4, 8)), np.zeros((8, 3)), rng.standard_normal(3))

    # Unnormalised 0..255 intensities with small weights: entries of order 1e2.
    yield _case(
        "raw_pixel_scale",
        True,
        np.floor(256.0 * rng.random((2, 16, 48))),
        0.02 * rng.standard_normal((48, 32)),
        rng.standard_normal(32),
    )

    # ViT-B/16: 196 patches of 16 * 16 * 3 = 768 values projected to D = 768.
    yield _case("vit_b16", True, *_random(rng, 2, 196, 768, 768))

    shape = (int(rng.integers(1, 5)), int(rng.integers(1, 65)), int(rng.integers(1, 97)), int(rng.integers(1, 65)))
    yield _case("random_any_size", True, *_random(rng, *shape))
