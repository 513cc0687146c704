"""Deterministic test cases for moe_load_balancing_loss.

The loader seeds ``rng`` from [tests].seed in problem.toml; ``k`` is a plain int (kind "int"). Which experts a
token picks must not hang on rounding: random logits are redrawn until no two in a row are within 1e-9 of each
other, and the tests with ties have small integer logits, equal exactly. The output is a 0-d array.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logits, k: int, probe: bool = False) -> dict:
    case = {"name": name, "hidden": hidden, "shape": [],
            "args": {"router_logits": np.ascontiguousarray(logits, dtype=np.float64), "k": int(k)}}
    return case | {"probe": True} if probe else case


def _logits(rng: np.random.Generator, tokens: int, experts: int, scale: float = 1.0) -> np.ndarray:
    while True:
        logits = scale * rng.standard_normal((tokens, experts))
        gaps = np.diff(np.sort(logits, axis=-1), axis=-1)
        if gaps.size == 0 or gaps.min() > 1e-9 * scale:
            return logits


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md, with k = 1 and k = 2.
    example = np.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [0.0, 1.0, 2.0], [4.0, 1.0, 2.0]])
    yield _case("example_k1", False, example, 1)
    yield _case("example_k2", False, example, 2)

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_token", True, _logits(rng, 1, 4), 2)
    # Every logit equal: every token picks experts 0..k-1, every probability is 1/E: the loss is 1.
    yield _case("all_logits_equal", True, np.zeros((6, 5)), 2)
    # k = E: every expert gets the same share, so the loss is E * sum_e P_e / E = 1.
    yield _case("k_equals_experts", True, _logits(rng, 7, 4), 4)
    yield _case("switch_k_one", True, _logits(rng, 32, 8), 1)
    # One expert far ahead for every token: f_0 = 1, P_0 close to 1, the loss close to E.
    collapsed = _logits(rng, 16, 6)
    collapsed[:, 0] += 30.0
    yield _case("collapsed_onto_one_expert", True, collapsed, 1)
    # Small integers: exact ties inside most rows, which the lower index wins.
    yield _case("integer_ties", True, rng.integers(-1, 2, size=(24, 6)), 2)
    # Logits in the thousands: np.exp of a raw logit overflows.
    yield _case("large_logits", True, _logits(rng, 20, 8, scale=3000.0), 2)
    yield _case("mixtral_shape", True, _logits(rng, 128, 8), 2)
    yield _case("many_experts", True, _logits(rng, 256, 64), 6)
    batch, experts = int(rng.integers(1, 60)), int(rng.integers(2, 20))
    yield _case("random_any_size", True, _logits(rng, batch, experts), int(rng.integers(1, experts + 1)))

    # Probe inputs (never graded): the same logits, each token's row shifted by its own whole number.
    base = _logits(rng, 12, 6)
    yield _case("probe_shift_base", True, base, 2, probe=True)
    yield _case("probe_rows_shifted", True, base + rng.integers(-20, 21, size=(12, 1)), 2, probe=True)
