"""Deterministic test cases for sinusoidal_positional_encoding.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state, so the same seed always yields the same cases. Both
parameters are plain ints, so every case is just a shape.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, length: int, d_model: int) -> dict:
    return {
        "name": name,
        "hidden": hidden,
        "args": {"length": int(length), "d_model": int(d_model)},
        "shape": (int(length), int(d_model)),
    }


def _even(rng: np.random.Generator, low: int, high: int) -> int:
    """An even number in [low, high] (both even)."""
    return 2 * int(rng.integers(low // 2, high // 2 + 1))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_1", False, 3, 4)
    yield _case("example_2_one_pair", False, 2, 2)

    # Hidden. The first has d_model >= 6 and several positions, so every known-wrong
    # variant already differs from the table there.
    yield _case("random_small", True, int(rng.integers(5, 21)), _even(rng, 6, 16))
    yield _case("random_medium", True, int(rng.integers(20, 101)), _even(rng, 18, 64))

    # Edge cases: only position 0 (all sines 0, all cosines 1), a single frequency.
    yield _case("single_position", True, 1, 8)
    yield _case("single_pair_long", True, 50, 2)
    yield _case("smallest_table", True, 1, 2)

    # Long sequences: angles reach several thousand radians, so rounding the
    # frequencies to float32 (or any other precision loss) shows.
    yield _case("long_sequence", True, 4096, 16)
    yield _case("wide_model", True, 16, 1024)

    # Model shapes: the original Transformer (d_model = 512) and GPT-2 small's width.
    yield _case("transformer_base", True, 512, 512)
    yield _case("gpt2_small_width", True, 128, 768)

    yield _case("random_any_size", True, int(rng.integers(1, 301)), _even(rng, 2, 256))
