"""Deterministic test cases for mixture_of_experts.

The loader seeds ``rng`` from [tests].seed in problem.toml; ``k`` is a plain int (kind "int"). Which experts a
token goes to must not hang on rounding: random router scores are redrawn until no two of a token are within
1e-9 (times their scale) of each other, and the tests with ties have small integer tokens and router weights,
whose scores are exact. Expert weights are drawn at 1 / sqrt(fan-in), so outputs are of order 1.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, w_router, w_gate, w_up, w_down, k: int, probe: bool = False) -> dict:
    arrays = {"x": x, "w_router": w_router, "w_gate": w_gate, "w_up": w_up, "w_down": w_down}
    args = {key: np.ascontiguousarray(value, dtype=np.float64) for key, value in arrays.items()}
    case = {"name": name, "hidden": hidden, "shape": list(np.shape(x)), "args": args | {"k": int(k)}}
    return case | {"probe": True} if probe else case


def _experts(rng: np.random.Generator, experts: int, width: int, hidden: int) -> tuple:
    return (rng.standard_normal((experts, width, hidden)) / np.sqrt(width),
            rng.standard_normal((experts, width, hidden)) / np.sqrt(width),
            rng.standard_normal((experts, hidden, width)) / np.sqrt(hidden))


def _router(rng: np.random.Generator, x: np.ndarray, experts: int, scale: float = 1.0) -> np.ndarray:
    while True:
        w_router = scale * rng.standard_normal((x.shape[1], experts)) / np.sqrt(x.shape[1])
        gaps = np.diff(np.sort(x @ w_router, axis=-1), axis=-1)
        if gaps.size == 0 or gaps.min() > 1e-9 * scale:
            return w_router


def _random(name: str, rng: np.random.Generator, tokens: int, width: int, hidden: int, experts: int, k: int,
            scale: float = 1.0) -> dict:
    x = rng.standard_normal((tokens, width))
    return _case(name, True, x, _router(rng, x, experts, scale), *_experts(rng, experts, width, hidden), k)


def _example() -> tuple:
    # statement.md: 3 tokens of width 2, 3 experts of hidden width 1, k = 2.
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    w_router = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    w_gate = np.array([[[1.0], [0.0]], [[0.0], [1.0]], [[1.0], [1.0]]])
    w_up = np.array([[[1.0], [1.0]], [[2.0], [1.0]], [[1.0], [-1.0]]])
    w_down = np.array([[[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]]])
    return x, w_router, w_gate, w_up, w_down


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md with k = 2 and k = 1.
    yield _case("example_k2", False, *_example(), 2)
    yield _case("example_k1", False, *_example(), 1)

    # Hidden cases (the judge runs them smallest first).
    yield _random("one_token", rng, 1, 6, 8, 4, 2)
    yield _random("k_one", rng, 10, 8, 12, 6, 1)
    # k = E: every token uses every expert, weighted by the softmax over all of them.
    yield _random("k_equals_experts", rng, 8, 6, 10, 4, 4)
    # Small integers: exact ties between router scores, which the lower index wins.
    x = rng.integers(-2, 3, size=(16, 4))
    yield _case("integer_router_ties", True, x, rng.integers(-1, 2, size=(4, 6)), *_experts(rng, 6, 4, 8), 2)
    # Router scores in the thousands: exp() of a raw score overflows.
    yield _random("large_router_scores", rng, 12, 8, 16, 6, 2, scale=2000.0)
    # A constant feature of 50 that only expert 0's router column reads: every token's best expert is 0,
    # and with k = 1 the others are never used.
    x = np.c_[np.full(9, 50.0), rng.standard_normal((9, 5))]
    w_router = _router(rng, x, 5)
    w_router[0] = 0.0
    w_router[0, 0] = 1.0
    yield _case("every_token_to_one_expert", True, x, w_router, *_experts(rng, 5, 6, 7), 1)
    # A constant feature that gives expert E-1 a score of -100: it is chosen by no token.
    x = np.c_[np.ones(14), rng.standard_normal((14, 7))]
    w_router = _router(rng, x, 6)
    w_router[:, -1] = 0.0
    w_router[0, -1] = -100.0
    yield _case("an_expert_nobody_chooses", True, x, w_router, *_experts(rng, 6, 8, 10), 2)
    yield _random("hidden_narrower_than_width", rng, 20, 16, 6, 4, 2)
    yield _random("mixtral_shape", rng, 64, 32, 64, 8, 2)
    yield _random("many_small_experts", rng, 96, 24, 16, 32, 4)
    tokens, width, hidden = int(rng.integers(1, 30)), int(rng.integers(1, 12)), int(rng.integers(1, 16))
    experts = int(rng.integers(1, 10))
    yield _random("random_any_size", rng, tokens, width, hidden, experts, int(rng.integers(1, experts + 1)))

    # Probe inputs (never graded): expert 5's router column reads only a constant feature, and gives it a score
    # 1 below every token's second best, so no token chooses it with k = 2 while its probability under a
    # softmax over all six stays near 0.1; the second case changes only expert 5's weights.
    x = np.c_[np.ones(12), rng.standard_normal((12, 7))]
    w_router = _router(rng, x, 6)
    w_router[:, 5] = 0.0
    w_router[0, 5] = np.sort(x @ w_router[:, :5], axis=-1)[:, -2].min() - 1.0
    w_gate, w_up, w_down = _experts(rng, 6, 8, 10)
    yield _case("probe_unused_base", True, x, w_router, w_gate, w_up, w_down, 2, probe=True)
    other = [w.copy() for w in (w_gate, w_up, w_down)]
    for w in other:
        w[5] = rng.standard_normal(w[5].shape)
    yield _case("probe_unused_expert_changed", True, x, w_router, *other, 2, probe=True)
