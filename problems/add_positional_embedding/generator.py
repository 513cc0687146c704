"""Deterministic test cases for add_positional_embedding.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state, so the same seed always yields the same cases.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, tokens: np.ndarray, pos_embed: np.ndarray) -> dict:
    return {
        "name": name,
        "hidden": hidden,
        "args": {
            "tokens": np.ascontiguousarray(tokens, dtype=np.float64),
            "pos_embed": np.ascontiguousarray(pos_embed, dtype=np.float64),
        },
    }


def _random(rng: np.random.Generator, batch: int, length: int, width: int) -> tuple:
    tokens = rng.standard_normal((batch, length, width))
    pos_embed = 0.02 * rng.standard_normal((1, length, width))
    return tokens, pos_embed


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case(
        "example_1",
        False,
        np.array([[[0.5, 0.5], [1.0, 2.0], [3.0, 4.0]]]),
        np.array([[[0.0, 1.0], [0.1, 0.2], [-0.1, -0.2]]]),
    )
    yield _case(
        "example_2",
        False,
        np.array([[[1.0], [2.0]], [[10.0], [20.0]]]),
        np.array([[[0.5], [-0.5]]]),
    )

    # Hidden cases.
    shape = (int(rng.integers(2, 5)), int(rng.integers(2, 11)), int(rng.integers(2, 9)))
    yield _case("random_small", True, *_random(rng, *shape))

    shape = (int(rng.integers(2, 7)), int(rng.integers(11, 51)), int(rng.integers(8, 33)))
    yield _case("random_medium", True, *_random(rng, *shape))

    yield _case("class_token_only", True, *_random(rng, 3, 1, 4))
    yield _case("width_one", True, *_random(rng, 2, 6, 1))
    yield _case("batch_of_one", True, *_random(rng, 1, 8, 5))
    # ViT-B/16 with its class token: 196 patches + 1 = 197 positions.
    yield _case("large_batch_vit_grid", True, *_random(rng, 8, 197, 64))

    yield _case(
        "all_negative",
        True,
        -np.abs(rng.standard_normal((3, 5, 4))) - 1.0,
        -np.abs(rng.standard_normal((1, 5, 4))),
    )
    yield _case("zero_tokens", True, np.zeros((2, 4, 3)), rng.standard_normal((1, 4, 3)))
    yield _case("zero_table", True, rng.standard_normal((4, 9, 6)), np.zeros((1, 9, 6)))

    magnitudes = 10.0 ** rng.integers(-6, 7, size=(2, 12, 10))
    signs = rng.choice([-1.0, 1.0], size=(2, 12, 10))
    yield _case("mixed_magnitudes", True, signs * magnitudes, rng.standard_normal((1, 12, 10)))

    shape = (int(rng.integers(1, 9)), int(rng.integers(1, 198)), int(rng.integers(1, 65)))
    yield _case("random_any_size", True, *_random(rng, *shape))
