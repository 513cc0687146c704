"""Deterministic test cases for softmax_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``axis`` is a plain Python int (kind "int" in problem.toml).
``probs`` is always a softmax of random logits along ``axis``, so its slices sum to 1.
Cases marked "fd" are small, with strictly positive probabilities, and are also checked
against finite_difference.py, which perturbs the logits log(probs).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _softmax(z: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _case(name: str, hidden: bool, probs, grad_probs, axis: int, fd: bool = False) -> dict:
    probs = np.ascontiguousarray(probs, dtype=np.float64)
    grad_probs = np.ascontiguousarray(grad_probs, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(probs.shape),
            "args": {"probs": probs, "grad_probs": grad_probs, "axis": int(axis)}}
    return case | {"fd": True} if fd else case


def _random(rng: np.random.Generator, shape: tuple, axis: int, name: str, hidden: bool = True,
            logit_scale: float = 1.5, grad_scale: float = 1.0, fd: bool = False) -> dict:
    probs = _softmax(logit_scale * rng.standard_normal(shape), axis)
    return _case(name, hidden, probs, grad_scale * rng.standard_normal(shape), axis, fd)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_vector", False, [0.5, 0.25, 0.25], [1.0, 0.0, 2.0], 0, fd=True)
    yield _case("example_columns", False, [[0.5, 0.2], [0.5, 0.8]], [[1.0, 1.0], [3.0, 0.0]], 0, fd=True)

    # Hidden cases (run smallest first).
    yield _random(rng, (3, 5), -1, "matrix_rows", fd=True)
    yield _random(rng, (2, 5, 4), 1, "three_dims_middle_axis", fd=True)
    yield _random(rng, (3, 2, 4, 5), -4, "four_dims_axis_minus_four", fd=True)
    yield _random(rng, (int(rng.integers(20, 60)),), 0, "vector")
    # An axis of length 1: the softmax is the constant 1 and passes no gradient back.
    yield _random(rng, (4, 1, 16), 1, "axis_of_length_one")
    # One-hot probabilities (a saturated softmax): the answer is exactly 0.
    peaks = rng.integers(0, 9, size=6)
    yield _case("one_hot_probs", True, np.eye(9)[peaks], rng.standard_normal((6, 9)), -1)
    yield _case("uniform_probs", True, np.full((5, 8), 1 / 8), rng.standard_normal((5, 8)), 1)
    yield _random(rng, (2, 3, 6, 4), -2, "four_dims_axis_minus_two")
    yield _random(rng, (2, 2, 7, 3, 2), 2, "five_dims_axis_two")
    # Masked causal attention: the weights above the diagonal are exactly 0.
    scores = rng.standard_normal((3, 8, 8))
    scores[:, np.triu_indices(8, k=1)[0], np.triu_indices(8, k=1)[1]] = -np.inf
    yield _case("masked_attention_weights", True, _softmax(scores, -1), rng.standard_normal((3, 8, 8)), -1)
    # Large incoming gradients and peaked weights.
    yield _random(rng, (6, 12), 0, "large_gradients", logit_scale=6.0, grad_scale=1e3)
    # GPT-2 small attention weights: 12 heads, 128 queries x 128 keys.
    yield _random(rng, (1, 12, 128, 128), -1, "gpt2_small_attention", logit_scale=2.0, grad_scale=0.1)

    ndim = int(rng.integers(1, 5))
    axis = int(rng.integers(-ndim, ndim))
    shape = tuple(int(n) for n in rng.integers(2, 9, size=ndim))
    yield _random(rng, shape, axis, "random_any_shape", logit_scale=float(rng.uniform(0.1, 5.0)))
