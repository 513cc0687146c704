"""Deterministic test cases for merge_heads.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    batch, n_heads, length, head_width = x.shape
    return {"name": name, "hidden": hidden, "args": {"x": x}, "shape": [batch, length, n_heads * head_width]}


def _random(rng: np.random.Generator, batch: int, n_heads: int, length: int, head_width: int) -> np.ndarray:
    return rng.standard_normal((batch, n_heads, length, head_width))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_two_heads", False, np.array([[[[0.0, 1.0], [4.0, 5.0]], [[2.0, 3.0], [6.0, 7.0]]]]))
    yield _case("example_one_head", False, np.arange(8.0).reshape(2, 1, 2, 2))

    # Hidden cases. The judge runs them smallest first, and a known mistake's
    # declared status is the one it gets on the first hidden case it fails; with
    # H, L and d all > 1 here, every mistake already shows its own symptom.
    shape = (2, int(rng.integers(2, 5)), int(rng.integers(2, 10)), int(rng.integers(2, 9)))
    yield _case("random_small", True, _random(rng, *shape))

    shape = (int(rng.integers(2, 5)), int(rng.integers(2, 9)), int(rng.integers(10, 40)), int(rng.integers(4, 17)))
    yield _case("random_medium", True, _random(rng, *shape))

    yield _case("counting_values", True, np.arange(2 * 3 * 6 * 4, dtype=np.float64).reshape(2, 3, 6, 4))
    yield _case("one_head", True, _random(rng, 3, 1, 5, 8))
    yield _case("head_width_one", True, _random(rng, 2, 6, 7, 1))
    yield _case("single_token", True, _random(rng, 4, 4, 1, 3))
    yield _case("batch_of_one", True, _random(rng, 1, 2, 9, 5))
    yield _case("many_narrow_heads", True, _random(rng, 2, 16, 16, 4))
    # GPT-2 small: 12 heads of width 64 back to D = 768, 128 tokens.
    yield _case("gpt2_small", True, _random(rng, 2, 12, 128, 64))
    # ViT-B/16: 197 tokens, 12 heads of width 64.
    yield _case("vit_b16", True, _random(rng, 2, 12, 197, 64))

    shape = (int(rng.integers(1, 5)), int(rng.integers(1, 13)), int(rng.integers(1, 65)), int(rng.integers(1, 33)))
    yield _case("random_any_size", True, _random(rng, *shape))
