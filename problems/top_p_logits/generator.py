"""Deterministic test cases for top_p_logits.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``p`` is a plain Python float (kind "float"). Which tokens survive
depends on comparisons of cumulative probabilities with p, and correct ways of summing
differ by a few ulps, so every case keeps p at least 1e-9 away from every cumulative sum
of its rows (``_clear_of_sums`` checks that); the near-threshold cases sit 1e-6 on either
side of one. The last two cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

MARGIN = 1e-9


def _cumulative(logits: np.ndarray) -> np.ndarray:
    ordered = -np.sort(-logits, axis=-1)
    e = np.exp(ordered - ordered[..., :1])
    return np.cumsum(e / e.sum(axis=-1, keepdims=True), axis=-1)


def _clear_of_sums(logits: np.ndarray, p: float) -> float:
    if np.min(np.abs(_cumulative(logits) - p)) <= MARGIN:
        raise ValueError(f"p = {p} lies within {MARGIN} of a cumulative probability")
    return p


def _case(name: str, hidden: bool, logits, p: float, probe: bool = False) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(logits.shape),
            "args": {"logits": logits, "p": _clear_of_sums(logits, float(p))}}
    return case | {"probe": True} if probe else case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    x = np.array([[2.0, 0.0, 1.0, -1.0], [1.0, 1.0, 1.0, 0.0]])
    yield _case("example_p07", False, x, 0.7)
    yield _case("example_p05", False, x, 0.5)

    # Hidden cases (the judge runs them smallest first).
    # A tiny p keeps only the most likely token; a dominant token alone exceeds p.
    yield _case("tiny_p", True, rng.standard_normal((4, 9)), 1e-4)
    peaked = rng.standard_normal((3, 8))
    peaked[:, 5] += 8.0
    yield _case("dominant_token", True, peaked, 0.9)
    yield _case("large_p", True, rng.standard_normal((3, 12)), 0.999)
    # Every token equally likely: the first one ranked is tied with all the others.
    yield _case("uniform_rows", True, np.full((2, 10), -0.3), 0.25)
    # Integer-valued logits: ties at the boundary.
    yield _case("ties_at_boundary", True, rng.integers(-2, 3, size=(6, 8)).astype(float), 0.6)
    # p 1e-6 above and 1e-6 below the mass of the two most likely tokens: three tokens, then two.
    row = np.array([[3.0, 2.0, 1.0, 0.0, -1.0, 0.5]])
    two = float(_cumulative(row)[0, 1])
    yield _case("just_above_two_tokens", True, row, two + 1e-6)
    yield _case("just_below_two_tokens", True, row, two - 1e-6)
    # Logits in the thousands: the softmax must subtract the row maximum.
    yield _case("large_logits", True, 3000.0 + 2.0 * rng.standard_normal((3, 15)), 0.8)
    masked = rng.standard_normal((4, 12))
    masked[:, 9:] = -np.inf
    yield _case("already_masked", True, masked, 0.95)
    yield _case("vector", True, rng.standard_normal(int(rng.integers(10, 40))), 0.5)
    yield _case("three_dims", True, 2.0 * rng.standard_normal((2, 3, 11)), 0.75)
    # GPT-2's 50,257-token vocabulary with the common p = 0.9.
    yield _case("gpt2_vocab_p09", True, 3.0 * rng.standard_normal((4, 50257)), 0.9)
    yield _case("random_any", True, rng.standard_normal((int(rng.integers(1, 6)), int(rng.integers(1, 200)))),
                float(rng.uniform(0.05, 0.95)))

    # Probe inputs (never graded): changing the second row leaves the first row's result unchanged.
    x = rng.standard_normal((2, 12))
    other = x.copy()
    other[1] = -8.0 + rng.standard_normal(12)  # almost no mass: row 0 then holds nearly all of a batch-wide softmax
    yield _case("probe_rows_base", True, x, 0.6, probe=True)
    yield _case("probe_other_row_changed", True, other, 0.6, probe=True)
