"""Deterministic test cases for gelu_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Cases marked "fd" are small, with |x| of order 1, and are also
checked against finite_difference.py. The last case is a probe input: the same x with
grad_out all zeros, whose gradient must be exactly zero.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

# GELU has its minimum here: the derivative changes sign, and the tanh form's root is elsewhere.
DIP = -0.7517915246935645


def _case(name: str, hidden: bool, x, grad_out, fd: bool = False, probe: bool = False) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    grad_out = np.ascontiguousarray(grad_out, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(x.shape), "args": {"x": x, "grad_out": grad_out}}
    return case | ({"fd": True} if fd else {}) | ({"probe": True} if probe else {})


def _random(rng: np.random.Generator, shape: tuple, name: str, scale: float = 2.0, grad_scale: float = 1.0,
            fd: bool = False) -> dict:
    return _case(name, True, scale * rng.standard_normal(shape), grad_scale * rng.standard_normal(shape), fd)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_ones", False, [-2.0, -0.5, 0.0, 0.5, 2.0], np.ones(5), fd=True)
    yield _case("example_matrix", False, [[1.0, -1.0], [3.0, -3.0]], [[2.0, 2.0], [-1.0, 0.5]], fd=True)

    # Hidden cases (the judge runs them smallest first).
    yield _case("single_value", True, [rng.uniform(-3.0, 3.0)], [rng.standard_normal()], fd=True)
    # At 0 the derivative is exactly 1/2; tiny inputs stay within an ulp of it.
    yield _case("zero_and_tiny", True, [0.0, 1e-300, -1e-300, 1e-12, -1e-12, 1e-6, -1e-6],
                [1.0, -1.0, 2.0, 1.0, 1.0, -3.0, 0.5])
    # Around GELU's minimum (x ~ -0.7518) the exact derivative crosses 0 and is negative for
    # every x below it; +-sqrt(2), where it is largest (1.1289) and smallest (-0.1289).
    around = np.concatenate([DIP + np.linspace(-0.05, 0.05, 11), [-np.sqrt(2.0), np.sqrt(2.0)]])
    yield _case("around_the_minimum", True, around, 1.0 + rng.uniform(-0.5, 0.5, around.shape), fd=True)
    yield _random(rng, (int(rng.integers(3, 7)), int(rng.integers(4, 9))), "random_matrix", fd=True)
    # Where the tanh form's derivative is furthest away (up to 8.7e-4 near |x| = 2).
    yield _case("dense_middle", True, np.linspace(-4.0, 4.0, 321), rng.standard_normal(321))
    # The negative tail: a tiny negative derivative, about -|x| * phi(x), whose value an
    # accurate Phi gets right to the absolute tolerance; beyond -38 it underflows to 0.
    yield _case("negative_tail", True, -rng.uniform(3.0, 40.0, size=(6, 10)), rng.standard_normal((6, 10)))
    # The positive tail: the derivative is 1 plus a tiny positive bump.
    yield _case("positive_tail", True, rng.uniform(3.0, 40.0, size=(6, 10)), rng.standard_normal((6, 10)))
    yield _case("large_magnitudes", True, rng.uniform(-1e4, 1e4, size=(4, 16)), rng.standard_normal((4, 16)))
    # Gradients of very different sizes, some exactly zero (the result is exactly zero there).
    grad = rng.standard_normal((5, 12)) * 10.0 ** rng.integers(-6, 3, size=(5, 12))
    grad[rng.random((5, 12)) < 0.2] = 0.0
    yield _case("mixed_gradient_sizes", True, 2.0 * rng.standard_normal((5, 12)), grad)
    yield _random(rng, (2, 3, 4, 5), "four_dims", fd=True)
    # The backward of real MLPs' GELU (hidden width 4D = 3072): GPT-2 small on 32 tokens and
    # ViT-B/32 on one image's 50 tokens, with gradients of the size a backward pass carries.
    yield _random(rng, (1, 32, 3072), "gpt2_small_hidden", scale=1.0, grad_scale=1e-3)
    yield _random(rng, (1, 50, 3072), "vit_b32_hidden", scale=1.5, grad_scale=1e-2)

    ndim = int(rng.integers(1, 5))
    shape = tuple(int(n) for n in rng.integers(1, 10, size=ndim))
    yield _random(rng, shape, "random_any_shape", scale=3.0)

    # Probe input: the incoming gradient is zero everywhere, so the result must be zero everywhere.
    yield _case("probe_zero_gradient", True, np.linspace(-3.0, 3.0, 13), np.zeros(13), probe=True)
