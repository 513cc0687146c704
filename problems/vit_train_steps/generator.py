"""Deterministic test cases for vit_train_steps.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``params`` is a dict with exactly track 2's vit_forward weights for one encoder layer
(kind "params"): the block's weights keep vit_forward's layer axis, of length 1. Images, classes
and steps are tiny so that a whole training run takes milliseconds. The last case is a probe
input: never graded against an expected output, only checked for the property in problem.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

BLOCK = ("ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2")
PARAMS = ("w_patch", "b_patch", "cls_token", "pos_embed", *BLOCK, "ln_gamma", "ln_beta", "w_head", "b_head")


def _case(name: str, hidden: bool, images, labels, model: dict, patch_size: int, n_heads: int, lr: float,
          steps: int, probe: bool = False) -> dict:
    args = {
        "images": np.ascontiguousarray(images, dtype=np.float64),
        "labels": np.ascontiguousarray(labels, dtype=np.float64),
        "params": {key: np.ascontiguousarray(model[key], dtype=np.float64) for key in PARAMS},
        "patch_size": int(patch_size), "n_heads": int(n_heads), "lr": float(lr), "steps": int(steps),
    }
    case = {"name": name, "hidden": hidden, "args": args}
    return case | {"probe": True} if probe else case


def _model(rng: np.random.Generator, patch_values: int, width: int, hidden: int, n_patches: int, classes: int,
           attention_scale: float = 1.0) -> dict:
    # At initialisation: projections with standard deviation 1/sqrt(fan-in), gains near 1, small
    # shifts and biases; the class token and the position table random, as seed 000 says they start.
    def matrix(*shape: int, scale: float = 1.0) -> np.ndarray:
        return scale * rng.standard_normal(shape) / np.sqrt(shape[-2])

    def vector(*shape: int, centre: float = 0.0, spread: float = 0.1) -> np.ndarray:
        return centre + spread * rng.standard_normal(shape)

    return {
        "w_patch": matrix(patch_values, width), "b_patch": vector(width),
        "cls_token": vector(1, 1, width, spread=0.5), "pos_embed": vector(1, n_patches + 1, width, spread=0.5),
        "ln1_gamma": vector(1, width, centre=1.0, spread=0.2), "ln1_beta": vector(1, width),
        "w_q": matrix(1, width, width, scale=attention_scale), "w_k": matrix(1, width, width, scale=attention_scale),
        "w_v": matrix(1, width, width), "w_o": matrix(1, width, width),
        "ln2_gamma": vector(1, width, centre=1.0, spread=0.2), "ln2_beta": vector(1, width),
        "w1": matrix(1, width, hidden), "b1": vector(1, hidden),
        "w2": matrix(1, hidden, width), "b2": vector(1, width),
        "ln_gamma": vector(width, centre=1.0, spread=0.2), "ln_beta": vector(width),
        "w_head": matrix(width, classes), "b_head": vector(classes),
    }


def _random(rng: np.random.Generator, name: str, batch: int, size: tuple[int, int], channels: int, p: int,
            n_heads: int, d_head: int, hidden: int, classes: int, lr: float, steps: int,
            labels: np.ndarray | None = None, attention_scale: float = 1.0, probe: bool = False) -> dict:
    height, width_px = size
    width = n_heads * d_head
    images = rng.random((batch, height, width_px, channels))
    labels = rng.integers(0, classes, batch).astype(np.float64) if labels is None else labels
    model = _model(rng, p * p * channels, width, hidden, (height // p) * (width_px // p), classes, attention_scale)
    return _case(name, True, images, labels, model, p, n_heads, lr, steps, probe)


def _example() -> tuple:
    # statement.md: one 2 x 2 grayscale image in 1 x 1 patches, D = 2, one head; vit_forward's
    # worked example (w_q = w_k = 0, w_v = w_o = I, a zero feed-forward), class 2 the label.
    eye, zeros = np.eye(2)[None], np.zeros((1, 2, 2))
    model = {
        "w_patch": np.array([[1.0, -1.0]]), "b_patch": np.zeros(2), "cls_token": np.zeros((1, 1, 2)),
        "pos_embed": np.zeros((1, 5, 2)), "ln1_gamma": np.ones((1, 2)), "ln1_beta": np.zeros((1, 2)),
        "w_q": zeros, "w_k": zeros, "w_v": eye, "w_o": eye,
        "ln2_gamma": np.ones((1, 2)), "ln2_beta": np.zeros((1, 2)),
        "w1": np.zeros((1, 2, 2)), "b1": np.zeros((1, 2)), "w2": np.zeros((1, 2, 2)), "b2": np.zeros((1, 2)),
        "ln_gamma": np.ones(2), "ln_beta": np.zeros(2),
        "w_head": np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 1.0]]), "b_head": np.array([0.0, 0.0, 0.5]),
    }
    return np.array([[[[1.0], [2.0]], [[-1.0], [3.0]]]]), np.array([2.0]), model


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md, and a small random run.
    yield _case("example_1", False, *_example(), 1, 1, 0.5, 4)
    yield _random(rng, "example_random", 2, (4, 4), 1, 2, 2, 2, 8, 3, 0.5, 6) | {"hidden": False}

    # Hidden cases, smallest first.
    yield _random(rng, "one_step", 2, (4, 4), 3, 2, 2, 2, 8, 3, 0.5, 1)
    # lr = 0: nothing moves, every entry is the first loss.
    yield _random(rng, "zero_learning_rate", 2, (4, 4), 1, 2, 1, 4, 8, 3, 0.0, 3)
    yield _random(rng, "rgb_small", 3, (8, 8), 3, 4, 2, 4, 16, 4, 0.3, 8)
    yield _random(rng, "one_patch_per_image", 3, (4, 4), 3, 4, 2, 2, 8, 3, 0.5, 6)
    yield _random(rng, "patch_size_one", 2, (3, 3), 1, 1, 2, 2, 4, 3, 0.5, 6)
    yield _random(rng, "non_square_images", 2, (4, 8), 2, 2, 2, 2, 6, 5, 0.5, 6)
    yield _random(rng, "batch_of_one", 1, (4, 4), 3, 2, 2, 4, 16, 4, 0.5, 6)
    # Every image of the same class: the head alone can drive the loss down.
    yield _random(rng, "one_label_for_all", 4, (4, 4), 1, 2, 2, 2, 8, 3, 0.5, 8, labels=np.full(4, 1.0))
    yield _random(rng, "two_classes", 4, (4, 4), 1, 2, 1, 4, 8, 2, 0.5, 8)
    yield _random(rng, "heads_of_width_one", 2, (4, 4), 1, 2, 4, 1, 8, 3, 0.5, 6)
    yield _random(rng, "hidden_narrower_than_width", 2, (4, 4), 1, 2, 2, 4, 3, 3, 0.5, 6)
    # Large query and key weights: nearly one-hot attention, where an unstable softmax overflows.
    yield _random(rng, "sharp_attention", 2, (4, 4), 3, 2, 2, 4, 16, 3, 0.2, 6, attention_scale=8.0)
    yield _random(rng, "thirty_steps", 4, (8, 8), 3, 4, 2, 4, 16, 5, 0.2, 30)
    yield _random(rng, "large_step", 3, (4, 4), 1, 2, 2, 2, 8, 3, 2.0, 6)
    classes, n_heads = int(rng.integers(2, 6)), int(rng.integers(1, 4))
    p, rows, cols = int(rng.choice([1, 2])), int(rng.integers(1, 4)), int(rng.integers(1, 4))
    yield _random(rng, "random_sizes", int(rng.integers(1, 5)), (rows * p, cols * p), int(rng.integers(1, 4)), p,
                  n_heads, int(rng.integers(1, 4)), int(rng.integers(2, 17)), classes, float(rng.uniform(0.05, 1.0)),
                  int(rng.integers(2, 11)))

    # Probe input: with a small step, full-batch gradient descent lowers the loss at every step.
    yield _random(rng, "falls_base", 4, (4, 4), 3, 2, 2, 4, 16, 3, 0.1, 12, probe=True)
