"""Deterministic test cases for layer_norm.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``eps`` is a plain Python float (kind "float" in problem.toml).
The last two cases are probe inputs: never graded, only checked for the property
declared in problem.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, gamma, beta, eps: float, probe: bool = False) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    case = {
        "name": name,
        "hidden": hidden,
        "args": {
            "x": x,
            "gamma": np.ascontiguousarray(gamma, dtype=np.float64),
            "beta": np.ascontiguousarray(beta, dtype=np.float64),
            "eps": float(eps),
        },
        "shape": list(x.shape),
    }
    if probe:
        case["probe"] = True
    return case


def _affine(rng: np.random.Generator, width: int) -> tuple[np.ndarray, np.ndarray]:
    # Around the initial values (1 and 0) but far enough from them that a missing
    # scale or shift shows everywhere.
    return 1.0 + 0.5 * rng.standard_normal(width), 0.5 * rng.standard_normal(width)


def _random(rng: np.random.Generator, shape: tuple, eps: float, scale: float = 1.0, offset: float = 0.0):
    x = offset + scale * rng.standard_normal(shape)
    return (x, *_affine(rng, shape[-1]), eps)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    x = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]])
    yield _case("example_plain", False, x, np.ones(4), np.zeros(4), 1e-5)
    yield _case("example_scale_and_shift", False, x, [1.0, 1.0, 2.0, 0.5], [0.0, 0.5, 0.0, -1.0], 1e-5)

    # Hidden cases (the judge runs them smallest first).
    # D = 1: every row equals its own mean, so the output is beta, whatever x is.
    yield _case("width_one", True, *_random(rng, (3, 4, 1), 1e-5))
    # Constant rows: variance 0, the output is beta again (eps keeps it from being 0/0).
    rows = np.repeat(rng.standard_normal((5, 1)), 6, axis=1)
    yield _case("constant_rows", True, rows, *_affine(rng, 6), 1e-5)
    yield _case("vector", True, *_random(rng, (int(rng.integers(5, 20)),), 1e-5, scale=2.0, offset=1.0))

    shape = (int(rng.integers(2, 5)), int(rng.integers(3, 9)), int(rng.integers(5, 17)))
    yield _case("random_three_dims", True, *_random(rng, shape, 1e-5, scale=1.5, offset=0.3))
    yield _case("matrix_eps_1e-6", True, *_random(rng, (int(rng.integers(4, 12)), 24), 1e-6))
    yield _case("batch_of_one", True, *_random(rng, (1, int(rng.integers(4, 12)), 32), 1e-5))
    yield _case("four_dims", True, *_random(rng, (2, 3, 4, 10), 1e-5, offset=-2.0))
    # Features so small that eps dominates the variance: sqrt(var + eps) is not sqrt(var) + eps.
    yield _case("tiny_variance", True, *_random(rng, (3, 7, 12), 1e-5, scale=1e-3))
    # A large eps changes every output visibly.
    yield _case("large_eps", True, *_random(rng, (4, 9), 0.5))
    # Large features, as in a residual stream late in a deep network; BERT's eps of 1e-12.
    yield _case("large_features", True, *_random(rng, (2, 8, 20), 1e-12, scale=1e4))
    # A large common offset: E[x^2] - E[x]^2 cancels catastrophically here, centring first does not.
    yield _case("large_offset", True, *_random(rng, (3, 5, 16), 1e-5, offset=1e6))

    # ViT-B/16's encoder input (197 tokens of width 768) with its eps of 1e-6,
    # and GPT-2 small's residual stream with eps 1e-5.
    yield _case("vit_b16_tokens", True, *_random(rng, (2, 197, 768), 1e-6))
    yield _case("gpt2_small_stream", True, *_random(rng, (1, 128, 768), 1e-5, scale=3.0))

    ndim = int(rng.integers(1, 5))
    shape = tuple(int(n) for n in rng.integers(2, 9, size=ndim))
    yield _case("random_any_shape", True, *_random(rng, shape, 1e-5))

    # Probe inputs (never graded): changing the second sequence of the batch must
    # leave the first sequence's output unchanged.
    x, gamma, beta, _ = _random(rng, (2, 3, 8), 1e-5)
    other = x.copy()
    other[1] = 5.0 + 3.0 * rng.standard_normal((3, 8))
    yield _case("probe_rows_base", True, x, gamma, beta, 1e-5, probe=True)
    yield _case("probe_other_sequence_changed", True, other, gamma, beta, 1e-5, probe=True)
