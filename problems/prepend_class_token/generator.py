"""Deterministic test cases for prepend_class_token.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state, so the same seed always yields the same cases.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, patches: np.ndarray, cls_token: np.ndarray) -> dict:
    return {
        "name": name,
        "hidden": hidden,
        "args": {
            "patches": np.ascontiguousarray(patches, dtype=np.float64),
            "cls_token": np.ascontiguousarray(cls_token, dtype=np.float64),
        },
    }


def _random(rng: np.random.Generator, batch: int, n_patches: int, width: int) -> tuple:
    patches = rng.standard_normal((batch, n_patches, width))
    cls_token = 0.02 * rng.standard_normal((1, 1, width))
    return patches, cls_token


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case(
        "example_1",
        False,
        np.array([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]),
        np.array([[[0.1, -0.2, 0.3]]]),
    )
    yield _case(
        "example_2",
        False,
        np.array([[[1.0, 2.0], [3.0, 4.0]], [[-1.0, -2.0], [-3.0, -4.0]]]),
        np.array([[[0.5, 0.0]]]),
    )

    # Hidden cases.
    shape = (int(rng.integers(2, 5)), int(rng.integers(3, 11)), int(rng.integers(2, 9)))
    yield _case("random_small", True, *_random(rng, *shape))

    shape = (int(rng.integers(2, 7)), int(rng.integers(10, 51)), int(rng.integers(8, 33)))
    yield _case("random_medium", True, *_random(rng, *shape))

    yield _case("single_patch", True, *_random(rng, 3, 1, 4))
    yield _case("width_one", True, *_random(rng, 2, 5, 1))
    yield _case("batch_of_one", True, *_random(rng, 1, 7, 5))
    # ViT-B/16 sequence length: 14 x 14 = 196 patches.
    yield _case("large_batch_vit_grid", True, *_random(rng, 8, 196, 64))

    yield _case(
        "all_negative",
        True,
        -np.abs(rng.standard_normal((3, 6, 4))) - 1.0,
        -np.abs(rng.standard_normal((1, 1, 4))),
    )
    yield _case("zero_patches", True, np.zeros((2, 4, 3)), rng.standard_normal((1, 1, 3)))
    yield _case("zero_token", True, rng.standard_normal((4, 9, 6)), np.zeros((1, 1, 6)))

    magnitudes = 10.0 ** rng.integers(-6, 7, size=(2, 12, 10))
    signs = rng.choice([-1.0, 1.0], size=(2, 12, 10))
    yield _case("mixed_magnitudes", True, signs * magnitudes, 1e6 * rng.standard_normal((1, 1, 10)))

    shape = (int(rng.integers(1, 9)), int(rng.integers(1, 197)), int(rng.integers(1, 65)))
    yield _case("random_any_size", True, *_random(rng, *shape))
