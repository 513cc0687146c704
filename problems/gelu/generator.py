"""Deterministic test cases for gelu.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    return {"name": name, "hidden": hidden, "args": {"x": x}, "shape": list(x.shape)}


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_vector", False, np.array([-3.0, -1.0, 0.0, 1.0, 3.0]))
    yield _case("example_matrix", False, np.array([[0.5, -0.5], [2.0, -2.0]]))

    # Hidden cases (the judge runs them smallest first).
    yield _case("single_value", True, np.array([0.7]))
    # Zero and values so small that GELU(x) is x / 2 to full precision.
    yield _case("zero_and_tiny", True, np.array([0.0, 1e-300, -1e-300, 1e-12, -1e-12, 1e-6, -1e-6]))
    yield _case("random_matrix", True, rng.standard_normal((int(rng.integers(3, 8)), int(rng.integers(4, 12)))))
    # Where the approximations are worst: the dip around -0.75 and the bend between -3 and 3.
    yield _case("dense_middle", True, np.linspace(-3.0, 3.0, 241))
    # The negative tail: tiny values that only an accurate erf gets right relative to atol.
    yield _case("negative_tail", True, -rng.uniform(3.0, 40.0, size=(6, 10)))
    yield _case("positive_tail", True, rng.uniform(3.0, 40.0, size=(6, 10)))
    # Large magnitudes, as in a pre-activation that blew up: GELU(x) is x above and 0 below.
    yield _case("large_magnitudes", True, rng.uniform(-1e4, 1e4, size=(4, 16)))
    yield _case("four_dims", True, 2.0 * rng.standard_normal((2, 3, 4, 5)))

    # Pre-activations of real MLPs (hidden width 4D = 3072): GPT-2 small's feed-forward
    # on 32 tokens, and ViT-B/32's on one image's 50 tokens (kept this size so the judge's
    # one-CPU sandbox stays well inside the time limit).
    yield _case("gpt2_small_hidden", True, rng.standard_normal((1, 32, 3072)))
    yield _case("vit_b32_hidden", True, 1.5 * rng.standard_normal((1, 50, 3072)))

    ndim = int(rng.integers(1, 5))
    shape = tuple(int(n) for n in rng.integers(1, 12, size=ndim))
    yield _case("random_any_shape", True, 3.0 * rng.standard_normal(shape))
