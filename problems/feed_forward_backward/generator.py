"""Deterministic test cases for feed_forward_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. The hidden layer is wider than the model (H = 4 D on most tests), as in a transformer.
Cases marked "fd" are small and also checked against finite_difference.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, w1, b1, w2, b2, grad_out, fd: bool = False, probe: bool = False) -> dict:
    args = {key: np.ascontiguousarray(value, dtype=np.float64) for key, value in
            (("x", x), ("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2), ("grad_out", grad_out))}
    case = {"name": name, "hidden": hidden, "args": args}
    if probe:
        return case | {"probe": True}
    return case | {"fd": True} if fd else case


def _layers(rng: np.random.Generator, width: int, hidden: int, scale: float = 1.0, shift: float = 0.0) -> tuple:
    return (scale * rng.standard_normal((width, hidden)) / np.sqrt(width), shift + 0.1 * rng.standard_normal(hidden),
            rng.standard_normal((hidden, width)) / np.sqrt(hidden), 0.1 * rng.standard_normal(width))


def _random(rng: np.random.Generator, name: str, lead: tuple, width: int, hidden: int, scale: float = 1.0,
            shift: float = 0.0, fd: bool = False) -> dict:
    return _case(name, True, rng.standard_normal((*lead, width)), *_layers(rng, width, hidden, scale, shift),
                 rng.standard_normal((*lead, width)), fd)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md, and a small random one.
    yield _case("example_one_token", False, [[1.0, -1.0]], [[1.0, 0.0], [0.0, 1.0]], [0.0, 0.0],
                [[1.0, 0.0], [0.0, 1.0]], [0.0, 0.0], [[1.0, 1.0]], fd=True)
    yield _case("example_two_tokens", False, rng.standard_normal((2, 2)), *_layers(rng, 2, 8),
                rng.standard_normal((2, 2)), fd=True)

    # Hidden cases (run smallest first).
    yield _random(rng, "single_token", (1,), 3, 12, fd=True)
    yield _random(rng, "vector_no_leading_axis", (), 4, 16, fd=True)
    yield _random(rng, "batch_and_sequence", (2, 3), 3, 12, fd=True)
    # Pre-activations of size 0.1: near h = 0, where the density term matters most.
    yield _random(rng, "near_zero_pre_activations", (5,), 4, 16, scale=0.1)
    # Pre-activations around -6: GELU is almost blocked, and its derivative is tiny and negative.
    yield _random(rng, "negative_tail", (4,), 4, 16, scale=0.3, shift=-6.0)
    yield _random(rng, "positive_pre_activations", (4,), 4, 16, scale=0.3, shift=5.0)
    width, hidden = 4, 16
    yield _case("zero_gradient", True, rng.standard_normal((3, width)), *_layers(rng, width, hidden),
                np.zeros((3, width)))
    yield _random(rng, "large_pre_activations", (2, 4), 6, 24, scale=10.0)
    yield _random(rng, "vit_tiny_block", (2, 17), 32, 128)
    lead = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(0, 3))))
    width = int(rng.integers(1, 9))
    yield _random(rng, "random_sizes", lead, width, int(rng.integers(1, 5)) * width)

    # Probe inputs: the same tokens and second layer, then another first layer.
    x, g = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    w1, b1, w2, b2 = _layers(rng, 4, 16)
    other_w1, other_b1, _, _ = _layers(rng, 4, 16)
    yield _case("bias_base", True, x, w1, b1, w2, b2, g, probe=True)
    yield _case("bias_other_first_layer", True, x, other_w1, other_b1, w2, b2, g, probe=True)
