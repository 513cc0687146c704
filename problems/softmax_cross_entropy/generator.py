"""Deterministic test cases for softmax_cross_entropy.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Labels are float64 whole numbers, as the contract says.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logits, labels) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    labels = np.ascontiguousarray(labels, dtype=np.float64)
    return {"name": name, "hidden": hidden, "args": {"logits": logits, "labels": labels}, "shape": []}


def _labels(rng: np.random.Generator, batch: int, classes: int) -> np.ndarray:
    return rng.integers(0, classes, size=batch).astype(np.float64)


def _random(rng: np.random.Generator, batch: int, classes: int, scale: float = 2.0) -> tuple:
    return scale * rng.standard_normal((batch, classes)), _labels(rng, batch, classes)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_small", False, [[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [0.0, 2.0])
    yield _case("example_large", False, [[1000.0, 1002.0, 995.0]], [1.0])

    # Hidden cases (run smallest first).
    yield _case("batch_of_one", True, *_random(rng, 1, int(rng.integers(3, 12))))
    # One class: its probability is 1 and the loss is exactly 0.
    yield _case("single_class", True, 3.0 * rng.standard_normal((5, 1)), np.zeros(5))
    # Equal logits: every class has probability 1/K, the loss is log K.
    yield _case("equal_logits", True, np.full((4, 7), -1.5), _labels(rng, 4, 7))
    yield _case("random_small", True, *_random(rng, int(rng.integers(2, 6)), int(rng.integers(2, 9))))

    # Confident and right: the label holds the maximum, 40 above every other logit.
    logits = rng.standard_normal((6, 10))
    labels = _labels(rng, 6, 10)
    logits[np.arange(6), labels.astype(np.int64)] += 40.0
    yield _case("confident_correct", True, logits, labels)
    # Confident and wrong: the label's logit sits 30 below the rest.
    logits = rng.standard_normal((6, 10))
    labels = _labels(rng, 6, 10)
    logits[np.arange(6), labels.astype(np.int64)] -= 30.0
    yield _case("confident_wrong", True, logits, labels)

    # exp() overflows above about 709.78: the log of a naive softmax is NaN here, and the
    # log of a stable softmax is inf wherever the label is more than ~745 below its row's maximum.
    yield _case("large_logits", True, rng.uniform(-5000.0, 5000.0, size=(8, 10)), _labels(rng, 8, 10))
    # Every logit near -3000: exp() underflows to 0 everywhere without the shift.
    yield _case("large_negative_logits", True, -3000.0 + rng.standard_normal((5, 6)), _labels(rng, 5, 6))
    # Moderate logits, but each label sits 800 below its row's best logit: the probability
    # underflows to 0 (its log is -inf) even though no exp() overflows.
    logits = rng.standard_normal((4, 6))
    labels = _labels(rng, 4, 6)
    logits[np.arange(4), labels.astype(np.int64)] -= 800.0
    yield _case("label_far_below_max", True, logits, labels)

    yield _case("random_medium", True, *_random(rng, int(rng.integers(8, 33)), int(rng.integers(10, 101)), 4.0))
    # ImageNet-1k classes, a batch of 32.
    yield _case("imagenet_1000_classes", True, *_random(rng, 32, 1000, 3.0))
    # GPT-2's vocabulary: 16 next-token rows of 50257 logits (0.8M entries).
    yield _case("gpt2_vocabulary", True, *_random(rng, 16, 50257, 5.0))

    batch, classes = int(rng.integers(1, 65)), int(rng.integers(1, 300))
    yield _case("random_any_size", True, *_random(rng, batch, classes, float(rng.uniform(0.5, 20.0))))
