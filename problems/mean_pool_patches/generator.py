"""Deterministic test cases for mean_pool_patches.

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


def _with_class_token(rng: np.random.Generator, batch: int, patches: int, width: int) -> np.ndarray:
    # A class token far from the patches, so leaving it in the average is visible everywhere.
    z = rng.standard_normal((batch, patches + 1, width))
    z[:, 0] = 5.0 + rng.standard_normal((batch, width))
    return z


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one in statement.md (B = 2, N + 1 = 3, D = 2).
    yield _case("example", False, np.array([[[0.5, -1.0], [1.0, 2.0], [3.0, 4.0]],
                                            [[2.0, 0.0], [5.0, 6.0], [7.0, 8.0]]]))

    # Hidden cases (the judge runs them smallest first).
    # A single patch: the mean is that patch itself.
    yield _case("single_patch", True, _with_class_token(rng, 3, 1, 4))
    yield _case("width_one", True, _with_class_token(rng, 2, 6, 1))
    batch, patches, width = int(rng.integers(2, 5)), int(rng.integers(4, 12)), int(rng.integers(6, 17))
    yield _case("random_small", True, _with_class_token(rng, batch, patches, width))
    yield _case("batch_of_one", True, _with_class_token(rng, 1, 16, 12))
    # As many features as patches: averaging the wrong axis gives the right shape here.
    yield _case("square_tokens", True, _with_class_token(rng, 2, 8, 8))
    # Equal patches: their mean is that patch, exactly as given.
    z = _with_class_token(rng, 2, 9, 5)
    z[:, 1:] = z[:, 1:2]
    yield _case("identical_patches", True, z)
    # Large activations with a common offset: means of numbers near 1e6.
    yield _case("large_values", True, 1e6 + 1e3 * _with_class_token(rng, 2, 12, 16))

    # Real encoder outputs: ViT-B/32 at 224 px (49 patches + 1), ViT-L/16 (196 + 1, D = 1024)
    # and ViT-B/16 (196 + 1, D = 768) for a batch of four images.
    yield _case("vit_b32", True, _with_class_token(rng, 4, 49, 768))
    yield _case("vit_l16", True, _with_class_token(rng, 1, 196, 1024))
    yield _case("vit_b16", True, _with_class_token(rng, 4, 196, 768))

    shape = (int(rng.integers(1, 5)), int(rng.integers(1, 40)), int(rng.integers(1, 65)))
    yield _case("random_any_size", True, _with_class_token(rng, *shape))

    # Probe inputs (never graded): changing the class token must leave the output unchanged.
    z = _with_class_token(rng, 2, 6, 5)
    other = z.copy()
    other[:, 0] = -20.0 + rng.standard_normal((2, 5))
    yield _case("probe_base", True, z, probe=True)
    yield _case("probe_class_token_changed", True, other, probe=True)
