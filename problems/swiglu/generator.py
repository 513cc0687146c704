"""Deterministic test cases for swiglu.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Weights are drawn with LLaMA-like initial scales (1 / sqrt(fan in)),
and most layers are non-square (D != F != D_out), so that weights used in the wrong
layout do not even multiply. The last two cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, w_gate, w_up, w_down, probe: bool = False) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    w_down = np.ascontiguousarray(w_down, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": [*x.shape[:-1], w_down.shape[1]],
            "args": {"x": x, "w_gate": np.ascontiguousarray(w_gate, dtype=np.float64),
                     "w_up": np.ascontiguousarray(w_up, dtype=np.float64), "w_down": w_down}}
    return case | {"probe": True} if probe else case


def _layer(rng: np.random.Generator, d: int, f: int, d_out: int, gain: float = 1.0):
    return (gain * rng.standard_normal((d, f)) / np.sqrt(d), gain * rng.standard_normal((d, f)) / np.sqrt(d),
            rng.standard_normal((f, d_out)) / np.sqrt(f))


def _random(rng: np.random.Generator, lead: tuple, d: int, f: int, d_out: int, scale: float = 1.0,
            gain: float = 1.0):
    return (scale * rng.standard_normal((*lead, d)), *_layer(rng, d, f, d_out, gain))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    x = np.array([[1.0, -1.0], [2.0, 0.0]])
    w_gate = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    w_up = np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 2.0]])
    yield _case("example_two_tokens", False, x, w_gate, w_up, np.eye(3))
    yield _case("example_project_down", False, x, w_gate, w_up, [[1.0], [1.0], [1.0]])

    # Hidden cases (the judge runs them smallest first).
    yield _case("single_token", True, *_random(rng, (), 4, 6, 3))
    yield _case("one_hidden_unit", True, *_random(rng, (5,), 3, 1, 2))
    yield _case("square_layer", True, *_random(rng, (3, 8), 8, 8, 8))
    yield _case("wide_hidden", True, *_random(rng, (2, 7), 6, 16, 6))
    yield _case("narrow_output", True, *_random(rng, (4, 5), 12, 20, 3))
    # Pre-activations in the hundreds: exp(z) overflows for z > 709, so a sigmoid written as
    # e^z / (1 + e^z) turns into inf / inf; a correct SiLU is z for large z and 0 for very negative z.
    yield _case("large_preactivations", True, *_random(rng, (3, 6), 10, 14, 10, scale=1.0, gain=300.0))
    # Small pre-activations: SiLU is about z / 2 here, but never zero; the gate still matters.
    yield _case("small_preactivations", True, *_random(rng, (2, 4), 9, 24, 9, scale=1e-3))
    yield _case("four_dims", True, *_random(rng, (2, 2, 3), 8, 12, 5))
    # A LLaMA-shaped layer scaled down: F = 8D/3 rounded up to a multiple of 32.
    yield _case("llama_shape_small", True, *_random(rng, (1, 64), 192, 512, 192))
    yield _case("mistral_ratio", True, *_random(rng, (2, 48), 256, 896, 256))
    lead = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(0, 3))))
    d, f, d_out = (int(n) for n in rng.integers(1, 33, size=3))
    yield _case("random_any_shape", True, *_random(rng, lead, d, f, d_out))

    # Probe input (never graded): with w_gate = 0 every gate is silu(0) = 0, so the output is 0.
    x, _, w_up, w_down = _random(rng, (3, 5), 5, 7, 4)
    yield _case("probe_closed_gate", True, x, np.zeros((5, 7)), w_up, w_down, probe=True)
