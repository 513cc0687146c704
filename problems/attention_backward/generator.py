"""Deterministic test cases for attention_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``mask`` is an optional array: it is left out of the unmasked cases, so the default None is
tested. Every row of a mask keeps at least one 0. The smallest hidden cases have different
numbers of queries and keys, so that a missing transpose shows. Cases marked "fd" are small and
also checked against finite_difference.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _causal(length: int) -> np.ndarray:
    return np.where(np.tri(length, dtype=bool), 0.0, -np.inf)


def _case(name: str, hidden: bool, q, k, v, grad_out, mask=None, fd: bool = False, probe: bool = False) -> dict:
    args = {key: np.ascontiguousarray(value, dtype=np.float64)
            for key, value in (("q", q), ("k", k), ("v", v), ("grad_out", grad_out))}
    if mask is not None:
        args["mask"] = np.ascontiguousarray(mask, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "args": args}
    if probe:
        return case | {"probe": True}
    return case | {"fd": True} if fd else case


def _random(rng: np.random.Generator, name: str, lead: tuple, lq: int, lk: int, d: int, dv: int, mask=None,
            scale: float = 1.0, fd: bool = False) -> dict:
    return _case(name, True, scale * rng.standard_normal((*lead, lq, d)), scale * rng.standard_normal((*lead, lk, d)),
                 rng.standard_normal((*lead, lk, dv)), rng.standard_normal((*lead, lq, dv)), mask, fd)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_one_query", False, [[2.0, 0.0]], [[1.0, 0.0], [-1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]],
                [[1.0, 0.0]], fd=True)
    yield _case("example_causal", False, [[1.0], [1.0]], [[0.0], [1.0]], [[1.0], [3.0]], [[1.0], [1.0]],
                _causal(2), fd=True)

    # Hidden cases (run smallest first).
    yield _random(rng, "one_query_three_keys", (), 1, 3, 2, 4, fd=True)
    # One key: every weight is 1, so neither the query nor the key gets a gradient.
    yield _random(rng, "single_key", (), 4, 1, 3, 2)
    yield _random(rng, "more_keys_than_queries", (), 3, 5, 4, 2, fd=True)
    yield _random(rng, "causal_mask", (), 4, 4, 3, 3, _causal(4), fd=True)
    yield _random(rng, "batch_and_heads", (2, 2), 3, 4, 4, 3, fd=True)
    # Padding: the last two keys are masked for every query.
    padding = np.zeros((3, 6))
    padding[:, 4:] = -np.inf
    yield _random(rng, "padding_mask", (2,), 3, 6, 4, 5, padding)
    # Each query may see only the key at its own position: one-hot weights, no gradient to q or k.
    yield _random(rng, "diagonal_mask", (), 5, 5, 4, 4, np.where(np.eye(5, dtype=bool), 0.0, -np.inf))
    # Zero queries: uniform weights.
    q = np.zeros((6, 8))
    yield _case("uniform_weights", True, q, rng.standard_normal((7, 8)), rng.standard_normal((7, 3)),
                rng.standard_normal((6, 3)))
    # Scores in the hundreds: the weights must be computed stably, and most are exactly 0.
    yield _random(rng, "large_scores", (2,), 5, 6, 8, 4, scale=8.0)
    yield _random(rng, "vit_tiny_head", (2, 3), 17, 17, 64, 64)
    # GPT-2 small: 12 heads of width 64 over 64 causal positions.
    yield _random(rng, "gpt2_small_causal", (1, 12), 64, 64, 64, 64, _causal(64))
    lq, lk = (int(n) for n in rng.integers(1, 9, size=2))
    yield _random(rng, "random_sizes", tuple(int(n) for n in rng.integers(1, 4, size=int(rng.integers(0, 3)))),
                  lq, lk, int(rng.integers(1, 9)), int(rng.integers(1, 9)))

    # Probe inputs: a causal mask, then every key and value after position 0 changed.
    q, k, v, g = (rng.standard_normal((2, 5, 4)) for _ in range(4))
    later_k, later_v = k.copy(), v.copy()
    later_k[:, 1:] += rng.standard_normal((2, 4, 4))
    later_v[:, 1:] += rng.standard_normal((2, 4, 4))
    yield _case("causal_base", True, q, k, v, g, _causal(5), probe=True)
    yield _case("causal_future_changed", True, q, later_k, later_v, g, _causal(5), probe=True)
