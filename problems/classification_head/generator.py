"""Deterministic test cases for classification_head.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, y, weight, bias) -> dict:
    args = {"y": np.ascontiguousarray(y, dtype=np.float64),
            "weight": np.ascontiguousarray(weight, dtype=np.float64),
            "bias": np.ascontiguousarray(bias, dtype=np.float64)}
    return {"name": name, "hidden": hidden, "args": args, "shape": [args["y"].shape[0], args["weight"].shape[1]]}


def _random(rng: np.random.Generator, batch: int, width: int, classes: int, scale: float = 1.0) -> tuple:
    # Weights ~ 1/sqrt(D) give logits of order 1; the bias is of the same order, so leaving
    # it out changes every logit.
    return (scale * rng.standard_normal((batch, width)), rng.standard_normal((width, classes)) / np.sqrt(width),
            rng.standard_normal(classes))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one worked in statement.md (B = 2, D = 3, K = 2).
    yield _case("example", False, np.array([[1.0, 0.0, 2.0], [0.5, -1.0, 0.0]]),
                np.array([[1.0, -1.0], [2.0, 0.0], [0.0, 0.5]]), np.array([0.1, -0.2]))

    # Hidden cases (the judge runs them smallest first). The first has B, D and K all
    # different, so every mistake shows the same way whatever the seed draws.
    yield _case("random_small", True, *_random(rng, 3, 5, 4))
    # One class: a single score per image, as in binary classification with one logit.
    yield _case("single_class", True, *_random(rng, 4, 6, 1))
    yield _case("width_one", True, *_random(rng, 3, 1, 5))
    yield _case("batch_of_one", True, *_random(rng, 1, 16, 7))
    # As many classes as features: a transposed weight has the right shape here.
    yield _case("square_weight", True, *_random(rng, 2, 8, 8))
    # A zero weight (the head is often initialised to zero): the logits are the bias.
    y, weight, bias = _random(rng, 5, 12, 6)
    yield _case("zero_weight", True, y, np.zeros_like(weight), bias)
    # Large features without a final norm: logits in the thousands.
    yield _case("large_features", True, *_random(rng, 4, 32, 10, scale=300.0))
    batch, width, classes = int(rng.integers(2, 9)), int(rng.integers(8, 65)), int(rng.integers(2, 33))
    yield _case("random_medium", True, *_random(rng, batch, width, classes))

    # ViT-B/16 heads: CIFAR-10 (10 classes) for a batch of 8, ImageNet-1k for a batch of 4.
    yield _case("vit_b16_cifar10", True, *_random(rng, 8, 768, 10))
    yield _case("vit_b16_imagenet", True, *_random(rng, 4, 768, 1000))

    shape = (int(rng.integers(1, 9)), int(rng.integers(1, 129)), int(rng.integers(1, 101)))
    yield _case("random_any_size", True, *_random(rng, *shape))
