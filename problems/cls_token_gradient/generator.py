"""Deterministic test cases for cls_token_gradient.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Cases marked "fd" are small enough for finite_difference.py
(two forward passes per feature) and are also checked against its estimate.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, grad_sequence, fd: bool = False) -> dict:
    grad_sequence = np.ascontiguousarray(grad_sequence, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "args": {"grad_sequence": grad_sequence},
            "shape": [1, 1, grad_sequence.shape[2]]}
    return case | {"fd": True} if fd else case


def _random(rng: np.random.Generator, batch: int, length: int, width: int, scale: float = 1.0) -> np.ndarray:
    return scale * rng.standard_normal((batch, length, width))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one worked in statement.md.
    yield _case("example", False, [[[1.0, 2.0], [0.5, 0.5], [3.0, -1.0]],
                                   [[-0.5, 4.0], [1.0, 1.0], [2.0, 2.0]]], fd=True)

    # Hidden cases (run smallest first).
    yield _case("batch_of_one", True, _random(rng, 1, 5, 4))
    yield _case("width_one", True, _random(rng, 4, 6, 1), fd=True)
    yield _case("single_patch", True, _random(rng, 3, 2, 5), fd=True)
    yield _case("random_small", True, _random(rng, int(rng.integers(2, 6)), int(rng.integers(3, 9)),
                                              int(rng.integers(2, 9))), fd=True)
    # What a classifier reading slot 0 sends back before any attention layer mixes it:
    # a gradient that is zero at every patch slot.
    grad = np.zeros((6, 10, 8))
    grad[:, 0, :] = rng.standard_normal((6, 8))
    yield _case("gradient_only_at_the_class_slot", True, grad, fd=True)
    # Contributions that cancel across the batch: image 1 is minus image 0.
    half = _random(rng, 1, 7, 6)
    yield _case("cancelling_images", True, np.concatenate([half, -half, _random(rng, 1, 7, 6)]))
    yield _case("zero_gradient", True, np.zeros((3, 5, 4)))
    magnitudes = 10.0 ** rng.integers(-6, 7, size=(5, 9, 12))
    yield _case("mixed_magnitudes", True, rng.choice([-1.0, 1.0], size=(5, 9, 12)) * magnitudes)

    yield _case("random_medium", True, _random(rng, int(rng.integers(8, 33)), int(rng.integers(10, 60)),
                                               int(rng.integers(16, 65)), 0.01))
    # A large batch of short sequences.
    yield _case("batch_of_64", True, _random(rng, 64, 5, 32, 0.1))
    # ViT-B/16: 196 patches + the class token, width 768, a batch of 8 (1.2M entries).
    yield _case("vit_b16_batch", True, _random(rng, 8, 197, 768, 1e-3))

    shape = (int(rng.integers(1, 17)), int(rng.integers(2, 50)), int(rng.integers(1, 129)))
    yield _case("random_any_size", True, _random(rng, *shape, float(rng.uniform(0.01, 10.0))))
