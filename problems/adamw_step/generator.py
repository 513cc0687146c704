"""Deterministic test cases for adamw_step.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``step`` is a Python int and the settings are Python floats (their kinds in problem.toml).
The moments are states an optimiser could reach: v is never negative, and both are zero before
the first step.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

DEFAULTS = {"lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "weight_decay": 0.01}


def _case(name: str, hidden: bool, param, grad, m, v, step: int, probe: bool = False, **settings) -> dict:
    arrays = {key: np.ascontiguousarray(value, dtype=np.float64)
              for key, value in (("param", param), ("grad", grad), ("m", m), ("v", v))}
    scalars = {key: float(value) for key, value in (DEFAULTS | settings).items()}
    case = {"name": name, "hidden": hidden, "args": arrays | {"step": int(step)} | scalars}
    return case | {"probe": True} if probe else case


def _state(rng: np.random.Generator, shape: tuple, grad_scale: float = 1.0) -> tuple:
    """A weight, a gradient and moments of the gradient's size (v >= 0)."""
    grad = grad_scale * rng.standard_normal(shape)
    m = 0.3 * grad_scale * rng.standard_normal(shape)
    v = (grad_scale * rng.standard_normal(shape)) ** 2 * rng.uniform(0.2, 1.0, shape)
    return rng.standard_normal(shape), grad, m, v


def _random(rng: np.random.Generator, name: str, shape: tuple, step: int, grad_scale: float = 1.0,
            first: bool = False, **settings) -> dict:
    param, grad, m, v = _state(rng, shape, grad_scale)
    if first:
        m, v = np.zeros(shape), np.zeros(shape)
    return _case(name, True, param, grad, m, v, step, **settings)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_first_step", False, [1.0, -2.0, 0.5], [0.1, -3.0, 0.0], np.zeros(3), np.zeros(3), 1,
                lr=0.1, weight_decay=0.01)
    yield _case("example_third_step", False, [[0.5, -0.5]], [[1.0, 2.0]], [[0.2, 0.4]], [[0.01, 0.04]], 3,
                lr=0.01, beta1=0.5, beta2=0.75, weight_decay=0.1)

    # Hidden cases (run smallest first).
    yield _random(rng, "later_step", (5,), 10)
    yield _random(rng, "second_step", (2, 3), 2)
    yield _random(rng, "first_step_from_zero_moments", (4, 3), 1, first=True)
    # Gradients of 1e-9: sqrt(v_hat) is about 1e-9, comparable to eps, so where eps goes matters.
    yield _random(rng, "tiny_gradients", (3, 4), 5, grad_scale=1e-9)
    param, _, m, v = _state(rng, (4, 4))
    yield _case("zero_gradient", True, param, np.zeros((4, 4)), m, v, 7)
    yield _case("zero_gradient_zero_moments", True, param, np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 4)), 1)
    yield _random(rng, "no_weight_decay", (6, 3), 4, weight_decay=0.0)
    yield _random(rng, "strong_decay_large_lr", (3, 7), 20, lr=0.05, weight_decay=0.3)
    yield _random(rng, "beta1_zero", (5, 5), 3, beta1=0.0)
    yield _random(rng, "large_gradients", (2, 4, 6), 50, grad_scale=1e3)
    # Long after the start, 1 - beta^t is 1 to double precision: no bias left to correct.
    yield _random(rng, "step_one_hundred_thousand", (8, 8), 100_000)
    yield _random(rng, "vit_projection_weight", (192, 768), 300, lr=3e-4, weight_decay=0.05)
    yield _random(rng, "random_settings", tuple(int(n) for n in rng.integers(1, 9, size=int(rng.integers(1, 4)))),
                  int(rng.integers(1, 1000)), lr=float(10 ** rng.uniform(-4, -1)),
                  beta1=float(rng.uniform(0.8, 0.99)), beta2=float(rng.uniform(0.99, 0.9999)),
                  eps=float(10 ** rng.uniform(-10, -6)), weight_decay=float(rng.uniform(0.0, 0.2)))

    # Probe inputs: the same state, without and with weight decay.
    param, grad, m, v = _state(rng, (3, 5))
    yield _case("decay_off", True, param, grad, m, v, 6, probe=True, weight_decay=0.0)
    yield _case("decay_on", True, param, grad, m, v, 6, probe=True, weight_decay=0.1)
