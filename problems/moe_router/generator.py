"""Deterministic test cases for moe_router.

The loader seeds ``rng`` from [tests].seed in problem.toml; ``k`` is a plain int (kind "int"). Integer-valued
inputs make exactly equal scores (any order of the sums gives the same integers), so the tie rule decides
those cases rather than rounding; random scores are never within 1e-9 (times their scale) of each other.
The last case is a probe input: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, w_router, k: int, probe: bool = False) -> dict:
    case = {"name": name, "hidden": hidden, "args": {
        "x": np.ascontiguousarray(x, dtype=np.float64), "w_router": np.ascontiguousarray(w_router, dtype=np.float64),
        "k": int(k)}}
    return case | {"probe": True} if probe else case


def _random(name: str, rng: np.random.Generator, tokens: int, width: int, experts: int, k: int,
            scale: float = 1.0) -> dict:
    while True:
        x = scale * rng.standard_normal((tokens, width))
        w_router = rng.standard_normal((width, experts)) / np.sqrt(width)
        gaps = np.diff(np.sort(x @ w_router, axis=-1), axis=-1)
        if gaps.size == 0 or gaps.min() > 1e-9 * scale:  # no near-ties whose order rounding could decide
            return _case(name, True, x, w_router, k)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    w = np.array([[2.0, 0.0, 1.0, 2.0], [0.0, 3.0, 1.0, -1.0]])
    yield _case("example_k2_ties", False, x, w, 2)
    yield _case("example_k1", False, x, w, 1)

    # Hidden cases (the judge runs them smallest first).
    yield _random("one_token", rng, 1, 6, 5, 2)
    yield _random("k_one", rng, 5, 8, 6, 1)
    yield _random("k_equals_experts", rng, 6, 8, 5, 5)
    # Every score 0: the k lowest indices, equal weights 1/k.
    yield _case("all_scores_equal", True, rng.standard_normal((4, 6)), np.zeros((6, 8)), 3)
    # Small integers: exact ties between experts in most rows.
    yield _case("integer_ties", True, rng.integers(-2, 3, size=(16, 4)), rng.integers(-1, 2, size=(4, 8)), 3)
    # Scores in the thousands: exp() of a raw score overflows.
    yield _random("large_scores", rng, 12, 16, 8, 2, scale=2000.0)
    yield _random("non_square_router", rng, 40, 24, 5, 2)
    yield _random("mixtral_shape", rng, 64, 32, 8, 2)
    yield _random("many_experts", rng, 128, 32, 64, 8)
    yield _random("many_experts_k_large", rng, 32, 16, 64, 48)

    # Probe input (never graded): the weights of every token sum to 1.
    yield _case("probe_weights", True, rng.standard_normal((8, 12)), rng.standard_normal((12, 10)), 4, probe=True)
