"""Deterministic test cases for cls_pool.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. The last two cases are probe inputs: never graded, only
checked for the property declared in problem.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, z, probe: bool = False) -> dict:
    z = np.ascontiguousarray(z, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "args": {"z": z}, "shape": [z.shape[0], z.shape[2]]}
    if probe:
        case["probe"] = True
    return case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one in statement.md (B = 2, N + 1 = 3, D = 2).
    yield _case("example", False, np.array([[[0.5, -1.0], [1.0, 2.0], [3.0, 4.0]],
                                            [[2.0, 0.0], [5.0, 6.0], [7.0, 8.0]]]))

    # Hidden cases (the judge runs them smallest first).
    yield _case("width_one", True, rng.standard_normal((3, 5, 1)))
    # Only the class token, no patches: N = 0.
    yield _case("class_token_only", True, rng.standard_normal((2, 1, 4)))
    batch, tokens, width = int(rng.integers(2, 5)), int(rng.integers(5, 12)), int(rng.integers(6, 17))
    yield _case("random_small", True, rng.standard_normal((batch, tokens, width)))
    # As many sequences as tokens: z[0] has the right shape here, and the wrong rows.
    yield _case("square_batch", True, rng.standard_normal((5, 5, 8)))
    yield _case("batch_of_one", True, rng.standard_normal((1, 17, 12)))
    # Large activations, as a residual stream without a final norm can have.
    yield _case("large_values", True, 1e6 * rng.standard_normal((2, 10, 16)))
    # A 2 x 2 grid of patches with a distinctive class token.
    z = rng.standard_normal((3, 5, 6))
    z[:, 0] += 10.0
    yield _case("four_patches", True, z)

    # Real encoder outputs: ViT-B/32 at 224 px (49 patches + 1), ViT-L/16 (196 + 1, D = 1024)
    # and ViT-B/16 (196 + 1, D = 768) for a batch of four images.
    yield _case("vit_b32", True, rng.standard_normal((4, 50, 768)))
    yield _case("vit_l16", True, rng.standard_normal((1, 197, 1024)))
    yield _case("vit_b16", True, rng.standard_normal((4, 197, 768)))

    shape = (int(rng.integers(1, 5)), int(rng.integers(1, 40)), int(rng.integers(1, 65)))
    yield _case("random_any_size", True, rng.standard_normal(shape))

    # Probe inputs (never graded): changing every patch token must leave the readout unchanged.
    z = rng.standard_normal((2, 7, 6))
    other = z.copy()
    other[:, 1:] = 3.0 + 2.0 * rng.standard_normal((2, 6, 6))
    yield _case("probe_base", True, z, probe=True)
    yield _case("probe_patches_changed", True, other, probe=True)
