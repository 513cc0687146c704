"""Deterministic test cases for sample_next_token.

The loader seeds ``rng`` from [tests].seed in problem.toml. ``temperature`` is a plain float (kind "float").
Cumulative probabilities of rows with equal logits are exact in binary (quarters, eighths), so a u placed on
such a boundary separates "exceeds" from "reaches" without depending on rounding; every random u is drawn at
least 1e-9 away from every cumulative sum of its row, so correct ways of summing all agree. The last two
cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

GAP = 1e-9


def _case(name: str, hidden: bool, logits, temperature: float, u, probe: bool = False) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    u = np.ascontiguousarray(u, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": [logits.shape[0]],
            "args": {"logits": logits, "temperature": float(temperature), "u": u}}
    return case | {"probe": True} if probe else case


def _cumulative(logits: np.ndarray, temperature: float) -> np.ndarray:
    scaled = logits / temperature
    weights = np.exp(scaled - scaled.max(axis=-1, keepdims=True))
    return np.cumsum(weights / weights.sum(axis=-1, keepdims=True), axis=-1)


def _uniforms(rng: np.random.Generator, logits: np.ndarray, temperature: float, high: float = 1.0) -> np.ndarray:
    """One u per row in [0, high), redrawn while it lies within GAP of one of the row's cumulative sums."""
    cumulative = _cumulative(logits, temperature)
    u = rng.random(len(logits)) * high
    for row in range(len(u)):
        while np.abs(cumulative[row] - u[row]).min() < GAP:
            u[row] = rng.random() * high
    return u


def _random(name: str, rng: np.random.Generator, logits: np.ndarray, temperature: float) -> dict:
    return _case(name, True, logits, temperature, _uniforms(rng, logits, temperature))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    x = np.array([[2.0, 1.0, 0.0, -1.0], [0.0, 0.0, 0.0, 0.0]])
    yield _case("example_t1", False, x, 1.0, [0.7, 0.5])
    yield _case("example_t05", False, x, 0.5, [0.7, 0.5])

    # Hidden cases (the judge runs them smallest first).
    # Four equal logits: cumulative sums 0.25, 0.5, 0.75, 1 exactly, and u on each boundary.
    yield _case("u_on_exact_boundaries", True, np.zeros((4, 4)), 1.0, [0.0, 0.25, 0.5, 0.75])
    yield _case("eighths_any_temperature", True, np.full((8, 8), 3.5), 2.5, np.arange(8) / 8)
    # Leading tokens that are never allowed: u = 0 must still pick a token of positive probability.
    masked = np.array([[-np.inf, -np.inf, 1.0, 2.0], [-np.inf, 0.0, 0.0, -np.inf], [0.5, -np.inf, -np.inf, 0.5]])
    yield _case("u_zero_after_masked_tokens", True, masked, 1.0, [0.0, 0.0, 0.0])
    # u close to 1 with the tail masked: the last allowed token, never a masked one after it.
    tail = np.zeros((3, 10))
    tail[:, 7:] = -np.inf
    yield _case("u_near_one_masked_tail", True, tail, 1.0, [0.999999, 0.9, 0.5])
    yield _case("single_token", True, rng.standard_normal((3, 1)), 1.0, rng.random(3))
    yield _random("one_row", rng, rng.standard_normal((1, 17)), 1.0)
    yield _random("low_temperature", rng, 2.0 * rng.standard_normal((16, 30)), 0.25)
    yield _random("high_temperature", rng, 2.0 * rng.standard_normal((16, 30)), 4.0)
    spread = rng.standard_normal((12, 40))
    spread[rng.random((12, 40)) < 0.3] = -np.inf
    spread[:, 0] = rng.standard_normal(12)  # every row keeps an allowed token
    yield _random("masked_tokens", rng, spread, 1.0)
    # Logits in the thousands, and a tiny temperature that divides ordinary logits into the thousands.
    yield _random("large_logits", rng, 2000.0 * rng.standard_normal((12, 50)), 1.0)
    yield _random("tiny_temperature", rng, rng.standard_normal((12, 50)), 1e-3)
    yield _random("many_rows", rng, 3.0 * rng.standard_normal((64, 100)), 0.9)
    # GPT-2's vocabulary of 50,257 tokens.
    yield _random("gpt2_vocab", rng, 3.0 * rng.standard_normal((4, 50257)), 0.8)

    # Probe inputs (never graded): the same rows with 900 added to every logit.
    base = rng.standard_normal((3, 12))
    u = _uniforms(rng, base, 1.0)
    yield _case("probe_shift_base", True, base, 1.0, u, probe=True)
    yield _case("probe_shift_plus_900", True, base + 900.0, 1.0, u, probe=True)
