"""Deterministic test cases for label_smoothing_cross_entropy.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Labels are float64 whole numbers, as the contract says; ``smoothing``
is a plain Python float (kind "float"). The last four cases are probe inputs.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logits, labels, smoothing: float, probe: bool = False) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    labels = np.ascontiguousarray(labels, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": [],
            "args": {"logits": logits, "labels": labels, "smoothing": float(smoothing)}}
    return case | {"probe": True} if probe else case


def _labels(rng: np.random.Generator, batch: int, classes: int) -> np.ndarray:
    return rng.integers(0, classes, size=batch).astype(np.float64)


def _random(rng: np.random.Generator, batch: int, classes: int, scale: float = 2.0) -> tuple:
    return scale * rng.standard_normal((batch, classes)), _labels(rng, batch, classes)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_small", False, [[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [0.0, 2.0], 0.1)
    yield _case("example_large", False, [[1000.0, 1002.0, 995.0]], [1.0], 0.2)

    # Hidden cases (run smallest first).
    yield _case("batch_of_one", True, *_random(rng, 1, int(rng.integers(3, 12))), 0.1)
    # One class: the smoothed target is still all on it, and the loss is exactly 0.
    yield _case("single_class", True, 3.0 * rng.standard_normal((5, 1)), np.zeros(5), 0.3)
    # Equal logits: every class has probability 1/K, so the loss is log K whatever the target.
    yield _case("equal_logits", True, np.full((4, 7), -1.5), _labels(rng, 4, 7), 0.25)
    # smoothing = 0 is the plain cross-entropy; smoothing = 1 ignores the labels entirely.
    yield _case("no_smoothing", True, *_random(rng, int(rng.integers(2, 6)), int(rng.integers(2, 9))), 0.0)
    yield _case("full_smoothing", True, *_random(rng, int(rng.integers(2, 6)), int(rng.integers(2, 9))), 1.0)

    # Confident and right: plain cross-entropy is almost 0, but the smoothed target still
    # charges for the other classes sitting 40 below the label.
    logits = rng.standard_normal((6, 10))
    labels = _labels(rng, 6, 10)
    logits[np.arange(6), labels.astype(np.int64)] += 40.0
    yield _case("confident_correct", True, logits, labels, 0.1)
    # Confident and wrong: the label's logit sits 30 below the rest.
    logits = rng.standard_normal((6, 10))
    labels = _labels(rng, 6, 10)
    logits[np.arange(6), labels.astype(np.int64)] -= 30.0
    yield _case("confident_wrong", True, logits, labels, 0.1)

    # exp() overflows above about 709.78, and a class more than ~745 below its row's maximum
    # gets a probability of exactly 0: with smoothing every class counts, so the log of a
    # softmax is -inf here even when the label itself is the maximum.
    yield _case("large_logits", True, rng.uniform(-5000.0, 5000.0, size=(8, 10)), _labels(rng, 8, 10), 0.1)
    yield _case("large_negative_logits", True, -3000.0 + rng.standard_normal((5, 6)), _labels(rng, 5, 6), 0.2)
    # The label holds the maximum, and one other class sits 2000 below it.
    logits = rng.standard_normal((4, 6))
    labels = _labels(rng, 4, 6)
    logits[np.arange(4), labels.astype(np.int64)] += 5.0
    logits[np.arange(4), (labels.astype(np.int64) + 1) % 6] -= 2000.0
    yield _case("one_class_far_below", True, logits, labels, 0.1)

    yield _case("random_medium", True, *_random(rng, int(rng.integers(8, 33)), int(rng.integers(10, 101)), 4.0),
                float(rng.uniform(0.0, 0.5)))
    # ImageNet-1k classes with smoothing 0.1, the setting of Inception-v3 and DeiT training.
    yield _case("imagenet_1000_classes", True, *_random(rng, 32, 1000, 3.0), 0.1)
    # GPT-2's vocabulary: 16 next-token rows of 50257 logits (0.8M entries).
    yield _case("gpt2_vocabulary", True, *_random(rng, 16, 50257, 5.0), 0.1)

    batch, classes = int(rng.integers(1, 65)), int(rng.integers(1, 300))
    yield _case("random_any_size", True, *_random(rng, batch, classes, float(rng.uniform(0.5, 20.0))),
                float(rng.uniform(0.0, 1.0)))

    # Probe inputs. Shifting every logit of a row by the same amount changes no probability,
    # so the loss must not change.
    logits = np.array([[1.0, -2.0, 0.5, 3.0], [0.0, 4.0, -1.0, 2.0], [2.5, 2.5, -3.0, 1.0]])
    labels = np.array([3.0, 0.0, 2.0])
    yield _case("probe_shift_base", True, logits, labels, 0.2, probe=True)
    yield _case("probe_shift_moved", True, logits + np.array([[1000.0], [-500.0], [37.0]]), labels, 0.2, probe=True)
    # The same batch with two amounts of smoothing: the loss must differ.
    yield _case("probe_smoothing_low", True, logits, labels, 0.1, probe=True)
    yield _case("probe_smoothing_high", True, logits, labels, 0.4, probe=True)
