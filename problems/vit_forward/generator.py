"""Deterministic test cases for vit_forward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Every model is drawn here from ``rng`` at the scale of a
trained one; nothing is downloaded. The last two cases are probe inputs: never
graded against an expected output, only checked for the property declared in
problem.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

BLOCK = ("ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2")
PARAMS = ("w_patch", "b_patch", "cls_token", "pos_embed", *BLOCK, "ln_gamma", "ln_beta", "w_head", "b_head")


def _case(name: str, hidden: bool, images, model: dict, patch_size: int, n_heads: int, probe: bool = False) -> dict:
    args = {"images": np.ascontiguousarray(images, dtype=np.float64)}
    args.update({key: np.ascontiguousarray(model[key], dtype=np.float64) for key in PARAMS})
    args["patch_size"] = patch_size
    args["n_heads"] = n_heads
    case = {"name": name, "hidden": hidden, "args": args,
            "shape": (args["images"].shape[0], args["w_head"].shape[1])}
    if probe:
        case["probe"] = True
    return case


def _model(rng: np.random.Generator, n_layers: int, patch_values: int, width: int, hidden: int,
           n_patches: int, classes: int, patch_scale: float = 1.0) -> dict:
    # Projections with standard deviation 1/sqrt(fan-in), gains near 1, small shifts and biases;
    # class token and position table with standard deviation 0.5 so they matter next to the patches.
    def matrix(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape) / np.sqrt(shape[-2])

    def vector(*shape: int, centre: float = 0.0, spread: float = 0.1) -> np.ndarray:
        return centre + spread * rng.standard_normal(shape)

    return {
        "w_patch": patch_scale * matrix(patch_values, width), "b_patch": vector(width),
        "cls_token": vector(1, 1, width, spread=0.5), "pos_embed": vector(1, n_patches + 1, width, spread=0.5),
        "ln1_gamma": vector(n_layers, width, centre=1.0, spread=0.2), "ln1_beta": vector(n_layers, width),
        "w_q": matrix(n_layers, width, width), "w_k": matrix(n_layers, width, width),
        "w_v": matrix(n_layers, width, width), "w_o": matrix(n_layers, width, width),
        "ln2_gamma": vector(n_layers, width, centre=1.0, spread=0.2), "ln2_beta": vector(n_layers, width),
        "w1": matrix(n_layers, width, hidden), "b1": vector(n_layers, hidden),
        "w2": matrix(n_layers, hidden, width), "b2": vector(n_layers, width),
        "ln_gamma": vector(width, centre=1.0, spread=0.2), "ln_beta": vector(width),
        "w_head": matrix(width, classes), "b_head": vector(classes),
    }


def _random(rng: np.random.Generator, batch: int, height: int, width_px: int, channels: int, p: int,
            n_layers: int, n_heads: int, d_head: int, classes: int, pixels: float = 1.0) -> tuple:
    n_patches = (height // p) * (width_px // p)
    width = n_heads * d_head
    images = pixels * rng.random((batch, height, width_px, channels))
    patch_scale = 1.0 / pixels
    return images, _model(rng, n_layers, p * p * channels, width, 4 * width, n_patches, classes, patch_scale)


def _example() -> tuple:
    # statement.md: a 2 x 2 grayscale image, 1 x 1 patches, D = 2, one head, one layer.
    # w_patch = [[1, -1]] maps a pixel a to [a, -a]; the class token and the positions are 0;
    # w_q = w_k = 0 (uniform attention), w_v = w_o = I, and the feed-forward weights are all 0.
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
    return np.array([[[[1.0], [2.0]], [[-1.0], [3.0]]]]), model


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one worked in statement.md.
    yield _case("example_1", False, *_example(), 1, 1)

    # Hidden cases. The first: two RGB 8 x 8 images in 4 x 4 patches, two layers, five classes.
    yield _case("random_small", True, *_random(rng, 2, 8, 8, 3, 4, 2, 2, 8, 5), 4, 2)
    yield _case("grayscale", True, *_random(rng, 2, 12, 12, 1, 4, 1, 1, 8, 3), 4, 1)
    yield _case("one_patch_per_image", True, *_random(rng, 3, 4, 4, 3, 4, 2, 2, 4, 4), 4, 2)
    yield _case("patch_size_one", True, *_random(rng, 2, 3, 3, 2, 1, 2, 2, 4, 3), 1, 2)
    yield _case("non_square_images", True, *_random(rng, 2, 8, 12, 3, 4, 2, 2, 4, 6), 4, 2)
    yield _case("batch_of_one", True, *_random(rng, 1, 8, 8, 3, 2, 2, 4, 4, 7), 2, 4)
    yield _case("single_class", True, *_random(rng, 2, 8, 8, 3, 4, 1, 2, 4, 1), 4, 2)
    yield _case("six_layers", True, *_random(rng, 2, 8, 8, 3, 4, 6, 2, 8, 5), 4, 2)
    # Raw 0..255 intensities, with a patch projection scaled down to match (as if trained on them).
    images, model = _random(rng, 2, 16, 16, 3, 8, 2, 2, 8, 5, pixels=255.0)
    yield _case("raw_pixel_intensities", True, np.floor(images), model, 8, 2)

    p, rows, cols = int(rng.choice([1, 2, 4])), int(rng.integers(1, 5)), int(rng.integers(1, 5))
    batch, channels, n_layers = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 4))
    n_heads, d_head, classes = int(rng.integers(1, 4)), int(rng.integers(1, 9)), int(rng.integers(1, 11))
    yield _case("random_any_size", True, *_random(rng, batch, rows * p, cols * p, channels, p, n_layers, n_heads,
                                                  d_head, classes), p, n_heads)

    # ViT-Ti/16 on one 224 x 224 RGB image: 196 patches of 768 values, D = 192 in 3 heads, hidden
    # 768, 10 classes; 3 of its 12 layers, to stay well inside the time limit.
    yield _case("vit_tiny_224", True, *_random(rng, 1, 224, 224, 3, 16, 3, 3, 64, 10), 16, 3)

    # Probe inputs: changing one patch of the image must change the class logits.
    images, model = _random(rng, 2, 8, 8, 3, 4, 2, 2, 4, 5)
    changed = images.copy()
    changed[:, 4:, 4:, :] = rng.random((2, 4, 4, 3))
    yield _case("reach_base", True, images, model, 4, 2, probe=True)
    yield _case("reach_patch_changed", True, changed, model, 4, 2, probe=True)
