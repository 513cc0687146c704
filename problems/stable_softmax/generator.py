"""Deterministic test cases for stable_softmax.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``axis`` is a plain Python int (kind "int" in problem.toml).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, axis: int) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    return {"name": name, "hidden": hidden, "args": {"x": x, "axis": int(axis)}, "shape": list(x.shape)}


def _shape(rng: np.random.Generator, ndim: int, low: int = 1, high: int = 9) -> tuple:
    return tuple(int(n) for n in rng.integers(low, high, size=ndim))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the three worked in statement.md.
    x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    yield _case("example_rows", False, x, -1)
    yield _case("example_columns", False, x, 0)
    yield _case("example_large", False, np.array([1000.0, 1001.0, 1002.0]), 0)

    # Hidden cases. The judge runs them smallest first, and a known mistake's
    # declared status is the one it gets on the first hidden case it fails
    # (for the missing keepdims that is equal_logits, whose shapes cannot broadcast).
    yield _case("three_dims_middle_axis", True, rng.standard_normal((2, 5, 4)), 1)

    yield _case("matrix_last_axis", True, 3.0 * rng.standard_normal(_shape(rng, 2, 2, 17)), -1)
    yield _case("vector", True, rng.standard_normal(int(rng.integers(2, 50))), 0)
    yield _case("four_dims_axis_minus_four", True, rng.standard_normal((3, 2, 4, 5)), -4)
    yield _case("four_dims_axis_minus_two", True, rng.standard_normal((2, 3, 6, 4)), -2)
    yield _case("five_dims_axis_two", True, rng.standard_normal((2, 2, 7, 3, 2)), 2)
    yield _case("axis_of_length_one", True, rng.standard_normal((4, 1, 16)), 1)
    yield _case("single_element", True, np.array([[-7.5]]), -1)
    yield _case("equal_logits", True, np.full((3, 8), 2.5), -1)

    # Logits in the thousands: exp() overflows to inf above about 709.78.
    yield _case("large_logits", True, rng.uniform(-5000.0, 5000.0, size=(4, 6, 7)), -1)
    # Very negative logits: exp() underflows to 0 everywhere without the shift.
    yield _case("large_negative_logits", True, -3000.0 + rng.standard_normal((5, 9)), 0)
    # Slices whose maxima differ by thousands: one global shift is not enough.
    offsets = 1000.0 * np.arange(6)[:, None]
    yield _case("rows_far_apart", True, offsets + rng.standard_normal((6, 10)), 1)

    # Masked logits, as in attention: -inf entries get weight exactly 0.
    scores = rng.standard_normal((3, 6, 6))
    scores[:, np.triu_indices(6, k=1)[0], np.triu_indices(6, k=1)[1]] = -np.inf
    yield _case("masked_logits", True, scores, -1)

    # GPT-2 small attention scores: 12 heads, 128 queries x 128 keys.
    yield _case("gpt2_small_scores", True, 4.0 * rng.standard_normal((1, 12, 128, 128)), -1)

    ndim = int(rng.integers(1, 5))
    axis = int(rng.integers(-ndim, ndim))
    yield _case("random_any_shape", True, 2.0 * rng.standard_normal(_shape(rng, ndim)), axis)

    # Probe input (never graded): the output's slices along axis 1 must sum to 1.
    yield {"name": "probe_middle_axis", "probe": True,
           "args": {"x": rng.standard_normal((3, 5, 4)), "axis": 1}}
