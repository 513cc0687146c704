"""Deterministic test cases for mae_random_masking.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. The noise is given, as torch.rand would draw it in MAE's code, so the masking is
reproducible; some tests quantise it to force ties.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, noise, mask_ratio: float) -> dict:
    args = {"x": np.ascontiguousarray(x, dtype=np.float64), "mask_ratio": float(mask_ratio),
            "noise": np.ascontiguousarray(noise, dtype=np.float64)}
    return {"name": name, "hidden": hidden, "args": args}


def _random(rng: np.random.Generator, batch: int, length: int, width: int) -> tuple:
    return rng.standard_normal((batch, length, width)), rng.random((batch, length))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md.
    x = np.arange(12, dtype=np.float64).reshape(1, 6, 2)
    yield _case("example_1", False, x, [[0.7, 0.1, 0.9, 0.3, 0.5, 0.2]], 0.5)

    # Hidden cases (run smallest first).
    yield _case("one_patch_nothing_kept", True, *_random(rng, 2, 1, 3), 0.5)
    # mask_ratio 0: every patch is kept, in the order of its noise.
    yield _case("mask_ratio_0_keeps_all", True, *_random(rng, 2, 7, 3), 0.0)
    # 10 * (1 - 0.9) is 0.9999999999999998 in float64, so int() keeps no patch at all (MAE's own rounding).
    yield _case("ratio_0_9_of_10_keeps_none", True, *_random(rng, 2, 10, 4), 0.9)
    # Equal noise everywhere: the stable sort keeps the first K patches.
    yield _case("equal_noise_keeps_first", True, rng.standard_normal((2, 8, 3)), np.full((2, 8), 0.25), 0.5)
    x, noise = _random(rng, 3, 12, 5)
    yield _case("ties_in_noise", True, x, np.floor(noise * 3) / 3, 0.6)
    # 9 * 0.7 = 6.3 keeps 6 patches; the complement 9 - int(2.7) would keep 7.
    yield _case("ratio_0_3_of_9_keeps_6", True, *_random(rng, 2, 9, 3), 0.3)
    yield _case("batch_of_one", True, *_random(rng, 1, 9, 6), 0.3)
    yield _case("ratio_0_75_mae_default", True, *_random(rng, 4, 16, 8), 0.75)
    yield _case("random_any_size", True, *_random(rng, int(rng.integers(1, 5)), int(rng.integers(2, 50)),
                                                  int(rng.integers(1, 17))), float(rng.uniform(0.0, 0.95)))
    # ViT-B/16 on a 224 x 224 image: 196 patches of width 768, MAE's 75% masked (49 kept); the noise
    # takes 16 values, so many patches tie.
    x, noise = _random(rng, 2, 196, 768)
    yield _case("vit_b_16_196_patches_with_ties", True, x, np.floor(noise * 16) / 16, 0.75)
