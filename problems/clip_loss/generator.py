"""Deterministic test cases for clip_loss.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Embeddings are of any norm (the loss normalises them); matched pairs are built by adding
noise to a shared vector. The last two cases are probe inputs: the same batch with the images
and the texts swapped, which a symmetric loss cannot tell apart.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

CLIP_INIT = float(np.log(1 / 0.07))  # CLIP's initial logit_scale, about 2.659


def _case(name: str, hidden: bool, images, texts, logit_scale: float, probe: bool = False) -> dict:
    args = {"image_embeds": np.ascontiguousarray(images, dtype=np.float64),
            "text_embeds": np.ascontiguousarray(texts, dtype=np.float64), "logit_scale": float(logit_scale)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": []}
    if probe:
        case["probe"] = True
    return case


def _pairs(rng: np.random.Generator, n: int, d: int, noise: float = 0.5, norm: float = 1.0) -> tuple:
    shared = rng.standard_normal((n, d))
    images = norm * (shared + noise * rng.standard_normal((n, d))) * rng.uniform(0.5, 2.0, (n, 1))
    texts = norm * (shared + noise * rng.standard_normal((n, d))) * rng.uniform(0.5, 2.0, (n, 1))
    return images, texts


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md.
    yield _case("example_1", False, [[1.0, 0.0], [0.0, 2.0]], [[3.0, 0.0], [1.0, 1.0]], 0.0)

    # Hidden cases (run smallest first).
    yield _case("one_pair_loss_0", True, *_pairs(rng, 1, 4), CLIP_INIT)
    # Every embedding the same direction: every logit equal, the loss is log N.
    same = rng.standard_normal(6)
    yield _case("all_alike_log_n", True, np.outer(rng.uniform(0.5, 3.0, 5), same),
                np.outer(rng.uniform(0.5, 3.0, 5), same), CLIP_INIT)
    # Orthogonal, perfectly matched pairs at CLIP's maximum scale of 100.
    basis = np.eye(8)[rng.permutation(8)[:6]]
    yield _case("orthogonal_matches_scale_100", True, 2.0 * basis, 0.5 * basis, float(np.log(100.0)))
    yield _case("clip_init_scale", True, *_pairs(rng, 8, 16), CLIP_INIT)
    # Texts unrelated to the images.
    yield _case("unmatched_pairs", True, rng.standard_normal((6, 12)), rng.standard_normal((6, 12)), CLIP_INIT)
    # Embeddings with norms near 1e6 and 1e-6: only their directions count.
    images, texts = _pairs(rng, 5, 10)
    yield _case("norms_1e6_and_1e-6", True, 1e6 * images, 1e-6 * texts, CLIP_INIT)
    # Scales e^10 and e^20: logits of tens of thousands to hundreds of millions; exp overflows without the shift.
    yield _case("scale_e_10", True, *_pairs(rng, 6, 8, noise=1.0), 10.0)
    yield _case("scale_e_20", True, rng.standard_normal((6, 8)), rng.standard_normal((6, 8)), 20.0)
    yield _case("negative_scale", True, *_pairs(rng, 4, 6), -2.0)
    n, d = int(rng.integers(2, 40)), int(rng.integers(2, 64))
    yield _case("random_any_size", True, *_pairs(rng, n, d, float(rng.uniform(0.1, 2.0))), float(rng.uniform(0.0, 4.6)))
    # CLIP ViT-B/32's embedding width, a batch of 64.
    yield _case("vit_b_32_width_batch_64", True, *_pairs(rng, 64, 512), CLIP_INIT)

    # Probe inputs: images and texts swapped.
    images, texts = _pairs(rng, 7, 9, noise=1.5)
    yield _case("swap_a", True, images, texts, 1.5, probe=True)
    yield _case("swap_b", True, texts, images, 1.5, probe=True)
