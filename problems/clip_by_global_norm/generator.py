"""Deterministic test cases for clip_by_global_norm.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``grads`` is a dict with exactly the keys problem.toml declares (kind "params"): the
gradients of an embedding (V, D), a first feed-forward weight (D, H) and bias (H,), and a layer
norm's gain (D,). ``max_norm`` is a Python float.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _grads(embedding, w1, b1, gamma) -> dict:
    return {name: np.ascontiguousarray(value, dtype=np.float64)
            for name, value in (("embedding", embedding), ("w1", w1), ("b1", b1), ("gamma", gamma))}


def _case(name: str, hidden: bool, grads: dict, max_norm: float, probe: bool = False) -> dict:
    case = {"name": name, "hidden": hidden, "args": {"grads": grads, "max_norm": float(max_norm)}}
    return case | {"probe": True} if probe else case


def _random_grads(rng: np.random.Generator, vocab: int, d: int, hidden: int, scale: float = 1.0) -> dict:
    return _grads(scale * rng.standard_normal((vocab, d)), scale * rng.standard_normal((d, hidden)),
                  scale * rng.standard_normal(hidden), scale * rng.standard_normal(d))


def _norm(grads: dict) -> float:
    return float(np.sqrt(sum(np.sum(g * g) for g in grads.values())))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md (global norm sqrt(9 + 16 + 144) = 13).
    example = _grads([[3.0, 0.0]], [[0.0], [4.0]], [12.0], [0.0, 0.0])
    yield _case("example_clipped_by_half", False, example, 6.5)
    yield _case("example_below_the_limit", False, example, 20.0)

    # Hidden cases (run smallest first).
    yield _case("single_entries", True, _grads([[2.0]], [[-1.0]], [2.0], [4.0]), 1.0)
    # The boundary: a norm equal to max_norm is left as it is (the factor is exactly 1).
    yield _case("norm_exactly_at_the_limit", True, example, 13.0)
    grads = _random_grads(rng, 3, 4, 5)
    yield _case("norm_just_above_the_limit", True, grads, _norm(grads) * (1 - 1e-7))
    yield _case("all_zero", True, _grads(np.zeros((3, 2)), np.zeros((2, 4)), np.zeros(4), np.zeros(2)), 1.0)
    yield _case("one_array_zero", True, _grads(rng.standard_normal((4, 3)), np.zeros((3, 5)),
                                               rng.standard_normal(5), rng.standard_normal(3)), 0.5)
    # A norm below 1 that is still clipped: the sum of squares is below the limit, the norm is not.
    grads = _random_grads(rng, 4, 3, 4, scale=0.05)
    yield _case("small_norm_small_limit", True, grads, 0.6 * _norm(grads))
    # Every array on its own is under the limit; together they are over it.
    grads = _random_grads(rng, 5, 4, 6, scale=0.2)
    largest = max(float(np.linalg.norm(g)) for g in grads.values())
    yield _case("each_array_under_the_limit", True, grads, 1.1 * largest)
    yield _case("large_gradients", True, _random_grads(rng, 6, 4, 8, scale=1e4), 1.0)
    yield _case("huge_limit", True, _random_grads(rng, 7, 5, 9), 1e6)
    yield _case("small_model", True, _random_grads(rng, 512, 64, 256, scale=0.1), 1.0)
    sizes = [int(n) for n in rng.integers(1, 12, size=3)]
    grads = _random_grads(rng, *sizes, scale=float(10 ** rng.uniform(-2, 2)))
    yield _case("random_sizes", True, grads, float(_norm(grads) * rng.uniform(0.1, 2.0)))

    # Probe inputs: gradients over the limit, then the same gradients times 10. b1 alone is under it.
    grads = _random_grads(rng, 4, 3, 5)
    grads["b1"] *= 0.1
    limit = 2.0 * float(np.linalg.norm(grads["b1"]))
    yield _case("direction_base", True, grads, limit, probe=True)
    yield _case("direction_times_ten", True, {name: 10.0 * g for name, g in grads.items()}, limit, probe=True)
