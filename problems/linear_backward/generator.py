"""Deterministic test cases for linear_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Shapes are chosen so that the weight is non-square on the smallest hidden tests (where
transposed gradients cannot hide), and so that leading axes run from none (a single vector) to
three. Cases marked "fd" are small and also checked against finite_difference.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, weight, grad_out, fd: bool = False, probe: bool = False) -> dict:
    args = {"x": np.ascontiguousarray(x, dtype=np.float64),
            "weight": np.ascontiguousarray(weight, dtype=np.float64),
            "grad_out": np.ascontiguousarray(grad_out, dtype=np.float64)}
    case = {"name": name, "hidden": hidden, "args": args}
    if probe:
        return case | {"probe": True}
    return case | {"fd": True} if fd else case


def _random(rng: np.random.Generator, name: str, lead: tuple, d_in: int, d_out: int, scale: float = 1.0,
            fd: bool = False) -> dict:
    return _case(name, True, scale * rng.standard_normal((*lead, d_in)), rng.standard_normal((d_in, d_out)),
                 scale * rng.standard_normal((*lead, d_out)), fd)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_two_rows", False, [[1.0, 2.0, 0.0], [0.0, 1.0, -1.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                [[1.0, 0.0], [2.0, -1.0]], fd=True)
    yield _case("example_one_vector", False, [1.0, -2.0], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [1.0, 0.0, -1.0],
                fd=True)

    # Hidden cases (run smallest first).
    yield _random(rng, "one_row", (1,), 5, 3, fd=True)
    # No rows at all: the weight and bias gradients are sums of nothing, zeros.
    yield _case("empty_batch", True, np.zeros((0, 6)), rng.standard_normal((6, 4)), np.zeros((0, 4)))
    yield _random(rng, "single_vector_no_leading_axis", (), 7, 4, fd=True)
    yield _random(rng, "batch_and_sequence", (2, 3), 4, 2, fd=True)
    yield _random(rng, "square_weight", (3,), 4, 4)
    yield _random(rng, "rows", (4,), 3, 5, fd=True)
    yield _random(rng, "four_dims", (2, 3, 2), 3, 5, fd=True)
    yield _case("zero_gradient", True, rng.standard_normal((5, 6)), rng.standard_normal((6, 3)), np.zeros((5, 3)))
    # Pairs of equal inputs with opposite gradients: the weight and bias gradients cancel to 0.
    x, g = rng.standard_normal((2, 8)), rng.standard_normal((2, 3))
    yield _case("cancelling_rows", True, np.repeat(x, 2, axis=0), rng.standard_normal((8, 3)),
                np.stack([g[0], -g[0], g[1], -g[1]]))
    yield _random(rng, "large_values", (3, 4), 8, 6, scale=1e3)
    yield _random(rng, "vit_tokens", (2, 17), 48, 64)
    # GPT-2 small's attention output projection on 64 tokens.
    yield _random(rng, "gpt2_output_projection", (1, 64), 768, 768)
    lead = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(0, 4))))
    yield _random(rng, "random_any_shape", lead, int(rng.integers(1, 9)), int(rng.integers(1, 9)))

    # Probe inputs: the same rows, then two more rows whose incoming gradient is 0.
    x, weight, g = rng.standard_normal((3, 4)), rng.standard_normal((4, 2)), rng.standard_normal((3, 2))
    yield _case("padding_base", True, x, weight, g, probe=True)
    yield _case("padding_extra_rows", True, np.concatenate([x, rng.standard_normal((2, 4))]), weight,
                np.concatenate([g, np.zeros((2, 2))]), probe=True)
