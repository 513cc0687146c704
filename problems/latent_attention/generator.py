"""Deterministic test cases for latent_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; ``n_heads`` is a plain int (kind "int"). Weights are
drawn at 1 / sqrt(fan-in), so scores and outputs are of order 1 except where a case says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, w_dkv, w_uk, w_uv, w_q, w_o, n_heads: int, probe: bool = False) -> dict:
    arrays = {"x": x, "w_dkv": w_dkv, "w_uk": w_uk, "w_uv": w_uv, "w_q": w_q, "w_o": w_o}
    args = {key: np.ascontiguousarray(value, dtype=np.float64) for key, value in arrays.items()}
    case = {"name": name, "hidden": hidden, "shape": list(np.shape(x)), "args": args | {"n_heads": int(n_heads)}}
    return case | {"probe": True} if probe else case


def _weights(rng: np.random.Generator, width: int, rank: int, n_heads: int, d: int, d_v: int) -> tuple:
    def matrix(rows: int, columns: int) -> np.ndarray:
        return rng.standard_normal((rows, columns)) / np.sqrt(rows)

    return (matrix(width, rank), matrix(rank, n_heads * d), matrix(rank, n_heads * d_v), matrix(width, n_heads * d),
            matrix(n_heads * d_v, width))


def _random(rng: np.random.Generator, batch: int, length: int, width: int, rank: int, n_heads: int, d: int,
            d_v: int | None = None, scale: float = 1.0) -> tuple:
    x = scale * rng.standard_normal((batch, length, width))
    return (x, *_weights(rng, width, rank, n_heads, d, d if d_v is None else d_v), n_heads)


def _example() -> tuple:
    # statement.md: one sequence of 3 tokens of width 2, a latent of 1, one head of width 1.
    x = np.array([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])
    return (x, np.array([[1.0], [2.0]]), np.array([[1.0]]), np.array([[0.5]]), np.array([[1.0], [0.0]]),
            np.array([[1.0, -1.0]]), 1)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md, and a small random one with 2 heads.
    yield _case("example_one_head", False, *_example())
    yield _case("example_two_heads", False, *_random(rng, 1, 4, 6, 3, 2, 2))

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_position", True, *_random(rng, 2, 1, 8, 4, 2, 3))
    yield _case("one_head", True, *_random(rng, 2, 6, 8, 4, 1, 8))
    yield _case("latent_of_one", True, *_random(rng, 1, 7, 6, 1, 3, 2))
    # The latent as wide as the model: nothing is compressed, but nothing else changes.
    yield _case("latent_as_wide_as_the_model", True, *_random(rng, 2, 5, 8, 8, 2, 4))
    # Values narrower than keys: d_v = 3, d = 5.
    yield _case("values_narrower_than_keys", True, *_random(rng, 2, 6, 10, 4, 2, 5, d_v=3))
    # Scores in the hundreds to thousands: exp() of a raw score overflows.
    yield _case("large_scores", True, *_random(rng, 1, 8, 8, 4, 2, 4, scale=60.0))
    yield _case("batch_of_three", True, *_random(rng, 3, 9, 12, 6, 3, 4))
    # DeepSeek-V2's proportions, shrunk: r = D / 4 (V2: 512 for 5120), d = D / H.
    yield _case("deepseek_proportions", True, *_random(rng, 2, 32, 64, 16, 4, 16))
    yield _case("long_sequence", True, *_random(rng, 1, 96, 32, 8, 4, 8))
    batch, length, n_heads = int(rng.integers(1, 4)), int(rng.integers(1, 20)), int(rng.integers(1, 5))
    width, d = int(rng.integers(2, 20)), int(rng.integers(1, 8))
    rank = int(rng.integers(1, width + 1))  # r <= D
    yield _case("random_any_size", True, *_random(rng, batch, length, width, rank, n_heads, d))

    # Probe inputs (never graded). Keys and values: token 0 moved by a vector the down-projection maps to 0,
    # so its latent, and every key and value, stay as they were.
    x, w_dkv, w_uk, w_uv, w_q, w_o, n_heads = _random(rng, 2, 6, 8, 3, 2, 4)
    null = np.linalg.svd(w_dkv.T)[2][-1]  # a unit vector with null @ w_dkv = 0 (D = 8 > r = 3)
    moved = x.copy()
    moved[:, 0] += 3.0 * null
    yield _case("probe_latent_base", True, x, w_dkv, w_uk, w_uv, w_q, w_o, n_heads, probe=True)
    yield _case("probe_token_0_moved_off_the_latent", True, moved, w_dkv, w_uk, w_uv, w_q, w_o, n_heads, probe=True)
    # Causality: only the last token changed.
    x, *weights = _random(rng, 2, 6, 8, 4, 2, 4)
    changed = x.copy()
    changed[:, -1] = rng.standard_normal(changed[:, -1].shape)
    yield _case("probe_causal_base", True, x, *weights, probe=True)
    yield _case("probe_last_token_changed", True, changed, *weights, probe=True)
