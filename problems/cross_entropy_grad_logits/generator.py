"""Deterministic test cases for cross_entropy_grad_logits.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Cases marked "fd" are small enough for finite_difference.py
(two forward passes per logit) and are also checked against its estimate.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logits, labels, fd: bool = False) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    labels = np.ascontiguousarray(labels, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "args": {"logits": logits, "labels": labels},
            "shape": list(logits.shape)}
    return case | {"fd": True} if fd else case


def _labels(rng: np.random.Generator, batch: int, classes: int) -> np.ndarray:
    return rng.integers(0, classes, size=batch).astype(np.float64)


def _random(rng: np.random.Generator, batch: int, classes: int, scale: float = 2.0) -> tuple:
    return scale * rng.standard_normal((batch, classes)), _labels(rng, batch, classes)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one worked in statement.md.
    yield _case("example", False, [[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [0.0, 2.0], fd=True)

    # Hidden cases (run smallest first).
    yield _case("batch_of_one", True, *_random(rng, 1, int(rng.integers(3, 12))), fd=True)
    # One class: its probability is 1 and the gradient is exactly 0.
    yield _case("single_class", True, 3.0 * rng.standard_normal((5, 1)), np.zeros(5))
    yield _case("equal_logits", True, np.full((4, 7), 0.5), _labels(rng, 4, 7), fd=True)
    yield _case("random_small", True, *_random(rng, int(rng.integers(2, 6)), int(rng.integers(2, 9))), fd=True)

    # Confident and right: the label's logit is 40 above the rest, the gradient almost 0.
    logits = rng.standard_normal((6, 10))
    labels = _labels(rng, 6, 10)
    logits[np.arange(6), labels.astype(np.int64)] += 40.0
    yield _case("confident_correct", True, logits, labels, fd=True)
    # Confident and wrong: the label's logit sits 30 below, the gradient near -1/B there.
    logits = rng.standard_normal((6, 10))
    labels = _labels(rng, 6, 10)
    logits[np.arange(6), labels.astype(np.int64)] -= 30.0
    yield _case("confident_wrong", True, logits, labels, fd=True)

    # exp() overflows above about 709.78 without the max shift.
    yield _case("large_logits", True, rng.uniform(-5000.0, 5000.0, size=(8, 10)), _labels(rng, 8, 10))
    yield _case("large_negative_logits", True, -3000.0 + rng.standard_normal((5, 6)), _labels(rng, 5, 6))

    yield _case("random_medium", True, *_random(rng, int(rng.integers(8, 33)), int(rng.integers(10, 101)), 4.0))
    # ImageNet-1k classes, a batch of 32.
    yield _case("imagenet_1000_classes", True, *_random(rng, 32, 1000, 3.0))
    # GPT-2's vocabulary: 16 next-token rows of 50257 logits (0.8M entries).
    yield _case("gpt2_vocabulary", True, *_random(rng, 16, 50257, 5.0))

    batch, classes = int(rng.integers(1, 65)), int(rng.integers(1, 300))
    yield _case("random_any_size", True, *_random(rng, batch, classes, float(rng.uniform(0.5, 20.0))))
