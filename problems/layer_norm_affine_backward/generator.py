"""Deterministic test cases for layer_norm_affine_backward (the cases of layer_norm_backward, and more rows).

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``eps`` is a plain Python float (kind "float" in problem.toml).
Cases marked "fd" are small and well conditioned (rows with spread-out values), and are
also checked against finite_difference.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, gamma, grad_out, eps: float = 1e-5, fd: bool = False,
          probe: bool = False) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "args": {
        "x": x,
        "gamma": np.ascontiguousarray(gamma, dtype=np.float64),
        "grad_out": np.ascontiguousarray(grad_out, dtype=np.float64),
        "eps": float(eps),
    }}
    if probe:
        return case | {"probe": True}
    return case | {"fd": True} if fd else case


def _random(rng: np.random.Generator, name: str, shape: tuple, eps: float = 1e-5, scale: float = 1.0,
            offset: float = 0.0, fd: bool = False) -> dict:
    x = offset + scale * rng.standard_normal(shape)
    gamma = 1.0 + 0.5 * rng.standard_normal(shape[-1])
    return _case(name, True, x, gamma, rng.standard_normal(shape), eps, fd)



def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_two_tokens", False, [[-1.0, -1.0, 1.0, 1.0], [0.0, 2.0, 4.0, 6.0]], [1.0, 2.0, 1.0, 0.5],
                [[1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]], fd=True)
    yield _case("example_one_vector", False, [1.0, 3.0], [2.0, 1.0], [1.0, -1.0], eps=0.0, fd=True)

    # Hidden cases (run smallest first).
    yield _random(rng, "batch_of_one", (1, 6), fd=True)
    yield _random(rng, "vector", (9,), fd=True)
    # One feature: the normalised value is always 0, so neither x nor gamma gets a gradient.
    yield _random(rng, "width_one", (5, 1))
    yield _random(rng, "random_small", (int(rng.integers(2, 6)), int(rng.integers(3, 9))), fd=True)
    yield _random(rng, "three_dims", (2, 4, 6), fd=True)
    # Constant rows: the variance is 0 and eps alone keeps the division finite (x_hat is 0).
    yield _case("constant_rows", True, np.repeat(rng.standard_normal((4, 1)), 8, axis=1),
                1.0 + rng.standard_normal(8), rng.standard_normal((4, 8)))
    yield _case("zero_gamma", True, rng.standard_normal((3, 7)), np.zeros(7), rng.standard_normal((3, 7)))
    # As many tokens as features: a sum over the wrong axis keeps the right shape here.
    yield _random(rng, "square_tokens_by_features", (6, 6), fd=True)
    # A large eps (0.1) and a tiny one (1e-12) change the answer: eps sits inside the square root.
    yield _random(rng, "large_eps", (4, 10), eps=0.1, scale=0.3)
    yield _random(rng, "tiny_eps", (4, 10), eps=1e-12)
    # Rows far from zero (offset 100) and with a small spread: raw x and x_hat differ the most here.
    yield _random(rng, "large_offset", (6, 16), offset=100.0, scale=0.5)
    yield _random(rng, "large_scale", (3, 5, 12), scale=1e3)
    yield _random(rng, "four_dims", (2, 3, 4, 8))
    # GPT-2 small: a batch of 2 chunks of 128 tokens, width 768.
    yield _random(rng, "gpt2_small_batch", (2, 128, 768))

    shape = tuple(int(n) for n in rng.integers(1, 9, size=int(rng.integers(1, 4)))) + (int(rng.integers(2, 129)),)
    yield _random(rng, "random_any_shape", shape, eps=float(10.0 ** rng.uniform(-8, -3)),
                  scale=float(rng.uniform(0.1, 10.0)))

    # Probe inputs: the same tokens, then every feature shifted by the same constant.
    x, gamma, grad_out = rng.standard_normal((4, 6)), 1.0 + 0.5 * rng.standard_normal(6), rng.standard_normal((4, 6))
    yield _case("shift_base", True, x, gamma, grad_out, probe=True)
    yield _case("shift_by_a_constant", True, x + 3.0, gamma, grad_out, probe=True)
