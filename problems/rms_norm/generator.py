"""Deterministic test cases for rms_norm.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``eps`` is a plain Python float (kind "float" in problem.toml).
Most rows have a non-zero mean, so that centring them (layer norm's habit) changes the
answer. The last four cases are probe inputs: never graded, only checked for the
properties declared in problem.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, gamma, eps: float, probe: bool = False) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(x.shape),
            "args": {"x": x, "gamma": np.ascontiguousarray(gamma, dtype=np.float64), "eps": float(eps)}}
    return case | {"probe": True} if probe else case


def _gain(rng: np.random.Generator, width: int) -> np.ndarray:
    # Around LLaMA's initial value of 1, far enough from it that a missing gain shows.
    return 1.0 + 0.5 * rng.standard_normal(width)


def _random(rng: np.random.Generator, shape: tuple, eps: float, scale: float = 1.0, offset: float = 0.5):
    x = offset + scale * rng.standard_normal(shape)
    return x, _gain(rng, shape[-1]), eps


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    x = np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0]])
    yield _case("example_plain", False, x, np.ones(4), 1e-6)
    yield _case("example_gain", False, x, [1.0, 1.0, 2.0, 0.5], 1e-6)

    # Hidden cases (the judge runs them smallest first).
    # D = 1: each output is gamma * x / sqrt(x^2 + eps), about gamma times the sign of x.
    yield _case("width_one", True, *_random(rng, (3, 4, 1), 1e-6))
    # Rows of zeros next to ordinary rows: eps keeps 0 / 0 away and the output is 0.
    rows = rng.standard_normal((6, 8))
    rows[[1, 4]] = 0.0
    yield _case("zero_rows", True, rows, _gain(rng, 8), 1e-6)
    yield _case("vector", True, *_random(rng, (int(rng.integers(5, 20)),), 1e-6, scale=2.0))
    # Every row has a mean of 3 and a spread of 1: centring changes everything.
    yield _case("offset_rows", True, *_random(rng, (4, 5, 12), 1e-6, offset=3.0))
    # Constant rows: layer norm would give 0 here, RMSNorm gives gamma times the sign.
    constant = np.repeat(rng.uniform(-2.0, 2.0, size=(5, 1)), 10, axis=1)
    yield _case("constant_rows", True, constant, _gain(rng, 10), 1e-6)
    shape = (int(rng.integers(2, 5)), int(rng.integers(3, 9)), int(rng.integers(5, 17)))
    yield _case("random_three_dims", True, *_random(rng, shape, 1e-5, scale=1.5))
    # Features of size 1e-3, mean square 1e-6 next to eps 1e-5: eps dominates, and where
    # it goes (inside or outside the root) changes the output by a factor of several.
    yield _case("tiny_features", True, *_random(rng, (3, 7, 12), 1e-5, scale=1e-3, offset=0.0))
    yield _case("large_eps", True, *_random(rng, (4, 9), 0.5))
    yield _case("large_features", True, *_random(rng, (2, 8, 20), 1e-6, scale=1e4, offset=2e3))
    yield _case("four_dims", True, *_random(rng, (2, 3, 4, 10), 1e-6, offset=-1.0))
    # LLaMA-7B's width (4096) and eps (1e-6) on a short sequence; a Gemma-like 2048-wide
    # stream whose activations have grown to the tens.
    yield _case("llama_7b_width", True, *_random(rng, (1, 32, 4096), 1e-6))
    yield _case("wide_stream", True, *_random(rng, (2, 24, 2048), 1e-6, scale=30.0, offset=5.0))

    ndim = int(rng.integers(1, 5))
    shape = tuple(int(n) for n in rng.integers(2, 9, size=ndim))
    yield _case("random_any_shape", True, *_random(rng, shape, 1e-6))

    # Probe inputs (never graded). Changing the second sequence must leave the first
    # sequence's output unchanged; multiplying every token by 7 must leave the output
    # unchanged too, since eps = 1e-12 is negligible next to these rows' mean squares.
    x, gamma, eps = _random(rng, (2, 3, 8), 1e-6)
    other = x.copy()
    other[1] = 5.0 + 3.0 * rng.standard_normal((3, 8))
    yield _case("probe_rows_base", True, x, gamma, eps, probe=True)
    yield _case("probe_other_sequence_changed", True, other, gamma, eps, probe=True)
    x, gamma, _ = _random(rng, (4, 16), 1e-12)
    yield _case("probe_scale_base", True, x, gamma, 1e-12, probe=True)
    yield _case("probe_scale_times_7", True, 7.0 * x, gamma, 1e-12, probe=True)
