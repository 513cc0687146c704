"""Deterministic test cases for top_k_logits.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``k`` is a plain Python int (kind "int"). Several cases have
ties at the k-th value (integer-valued logits, constant rows, a repeated maximum), which
the contract keeps; one has values a few ulps apart around the k-th, which it does not
merge. The last four cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logits, k: int, probe: bool = False) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(logits.shape), "args": {"logits": logits, "k": int(k)}}
    return case | {"probe": True} if probe else case


def _kth(logits: np.ndarray, k: int) -> np.ndarray:
    return np.sort(logits, axis=-1)[..., -k, None]


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    x = np.array([[1.0, 3.0, 2.0, 3.0, 0.5], [0.0, -1.0, 5.0, 2.0, 2.0]])
    yield _case("example_k2_ties", False, x, 2)
    yield _case("example_k1", False, x, 1)

    # Hidden cases (the judge runs them smallest first).
    yield _case("k_equals_vocab", True, rng.standard_normal((3, 7)), 7)
    yield _case("k_one", True, 2.0 * rng.standard_normal((4, 9)), 1)
    # Integer-valued logits: ties at the k-th value in most rows.
    yield _case("ties_at_kth", True, rng.integers(-3, 4, size=(6, 10)).astype(float), 3)
    # The maximum repeated: k = 1 keeps every copy.
    repeated = rng.standard_normal((4, 8))
    repeated[:, [2, 5]] = repeated.max(axis=-1, keepdims=True) + 1.0
    yield _case("repeated_maximum_k1", True, repeated, 1)
    yield _case("constant_rows", True, np.full((2, 6), 0.75), 2)
    # Logits a few ulps apart around the k-th value: close is not tied.
    close = np.tile(np.array([1.0, 1.0 + 4e-16, 1.0 - 2e-16, 1.0 + 1e-15, 0.5, 2.0]), (3, 1))
    yield _case("nearly_tied", True, close, 3)
    # Tokens that are never allowed (-inf already), with k below the number of finite entries.
    masked = rng.standard_normal((5, 12))
    masked[:, 8:] = -np.inf
    masked[0, [1, 3]] = -np.inf
    yield _case("already_masked", True, masked, 4)
    yield _case("vector", True, rng.standard_normal(int(rng.integers(10, 40))), 5)
    yield _case("three_dims", True, rng.standard_normal((2, 3, 11)), 6)
    # Logits in the thousands: nothing is exponentiated, so nothing may overflow.
    yield _case("large_logits", True, 3000.0 * rng.standard_normal((3, 20)), 5)
    # GPT-2's vocabulary of 50,257 tokens, with the common k = 50.
    yield _case("gpt2_vocab_k50", True, 3.0 * rng.standard_normal((4, 50257)), 50)
    vocab = int(rng.integers(1, 200))
    yield _case("random_any", True, rng.standard_normal((int(rng.integers(1, 6)), vocab)),
                int(rng.integers(1, vocab + 1)))

    # Probe inputs (never graded).
    # 1. Changing the second row leaves the first row's result unchanged.
    x = rng.standard_normal((2, 12))
    other = x.copy()
    other[1] = 10.0 + rng.standard_normal(12)
    yield _case("probe_rows_base", True, x, 4, probe=True)
    yield _case("probe_other_row_changed", True, other, 4, probe=True)
    # 2. Lowering the logits that are already below the 4th largest changes nothing.
    x = rng.standard_normal((3, 12))
    lowered = np.where(x < _kth(x, 4), x - 1.0 - rng.random((3, 12)), x)
    yield _case("probe_dropped_base", True, x, 4, probe=True)
    yield _case("probe_dropped_lowered", True, lowered, 4, probe=True)
