"""Deterministic test cases for split_heads.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``n_heads`` is a plain Python int (kind "int").
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, n_heads: int) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    batch, length, width = x.shape
    return {
        "name": name,
        "hidden": hidden,
        "args": {"x": x, "n_heads": int(n_heads)},
        "shape": [batch, int(n_heads), length, width // int(n_heads)],
    }


def _random(rng: np.random.Generator, batch: int, length: int, n_heads: int, head_width: int) -> tuple:
    return rng.standard_normal((batch, length, n_heads * head_width)), n_heads


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_two_heads", False, np.arange(8.0).reshape(1, 2, 4), 2)
    yield _case("example_one_head", False, np.arange(12.0).reshape(2, 2, 3), 1)

    # Hidden cases. The judge runs them smallest first, and a known mistake's
    # declared status is the one it gets on the first hidden case it fails. Here
    # L, H and d are all > 1 and all different, so each mistake shows its own symptom.
    n_heads = int(rng.integers(2, 5))
    head_width = int(rng.integers(2, 9))
    head_width = head_width + 1 if head_width == n_heads else head_width
    length = int(rng.choice([n for n in range(2, 12) if n not in (n_heads, head_width)]))
    yield _case("random_small", True, *_random(rng, 2, length, n_heads, head_width))

    shape = (int(rng.integers(2, 5)), int(rng.integers(10, 40)), int(rng.integers(2, 9)), int(rng.integers(4, 17)))
    yield _case("random_medium", True, *_random(rng, *shape))

    yield _case("counting_values", True, np.arange(2 * 6 * 12, dtype=np.float64).reshape(2, 6, 12), 3)
    yield _case("one_head", True, *_random(rng, 3, 5, 1, 8))
    yield _case("head_width_one", True, *_random(rng, 2, 7, 6, 1))
    yield _case("single_token", True, *_random(rng, 4, 1, 4, 3))
    yield _case("batch_of_one", True, *_random(rng, 1, 9, 2, 5))
    yield _case("many_narrow_heads", True, *_random(rng, 2, 16, 16, 4))
    # GPT-2 small: D = 768 split into 12 heads of width 64, 128 tokens.
    yield _case("gpt2_small", True, *_random(rng, 2, 128, 12, 64))
    # ViT-B/16: 197 tokens (196 patches + class token), D = 768, 12 heads.
    yield _case("vit_b16", True, *_random(rng, 2, 197, 12, 64))

    shape = (int(rng.integers(1, 5)), int(rng.integers(1, 65)), int(rng.integers(1, 13)), int(rng.integers(1, 33)))
    yield _case("random_any_size", True, *_random(rng, *shape))
