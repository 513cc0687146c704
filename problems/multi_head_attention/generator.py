"""Deterministic test cases for multi_head_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Cases without a mask omit "mask" so the default (None) is
tested. The last four cases are probe inputs: they are never graded against an
expected output, only checked for the properties declared in problem.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, weights, n_heads: int, mask=None, probe: bool = False) -> dict:
    args = {"x": np.ascontiguousarray(x, dtype=np.float64)}
    for key, w in zip(("w_q", "w_k", "w_v", "w_o"), weights):
        args[key] = np.ascontiguousarray(w, dtype=np.float64)
    args["n_heads"] = n_heads
    if mask is not None:
        args["mask"] = np.ascontiguousarray(mask, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "args": args, "shape": tuple(args["x"].shape)}
    if probe:
        case["probe"] = True
    return case


def _weights(rng: np.random.Generator, width: int, scale: float = 1.0) -> tuple:
    # Standard deviation 1/sqrt(D) keeps the projected entries of order 1, so the
    # attention weights are neither uniform nor one-hot.
    return tuple(scale * rng.standard_normal((width, width)) / np.sqrt(width) for _ in range(4))


def _causal(length: int) -> np.ndarray:
    # 0 on and below the diagonal, -inf above: query i sees keys 0..i.
    return np.triu(np.full((length, length), -np.inf), k=1)


def _padding(rng: np.random.Generator, batch: int, length: int) -> np.ndarray:
    # (B, 1, 1, L): key j of sequence b is padding when j >= its length. Every
    # length is at least 1, so no query row is fully blocked.
    lengths = rng.integers(1, length + 1, size=batch)
    lengths[0] = max(1, length - 2)
    mask = np.zeros((batch, 1, 1, length))
    for b, n in enumerate(lengths):
        mask[b, ..., n:] = -np.inf
    return mask


def _random(rng: np.random.Generator, batch: int, length: int, n_heads: int, d_head: int, scale: float = 1.0):
    width = n_heads * d_head
    return rng.standard_normal((batch, length, width)), _weights(rng, width, scale)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples (the ones worked in statement.md): two heads of width 1.
    x = np.array([[[1.0, 0.0], [0.0, 2.0]]])
    eye = np.eye(2)
    swap = np.array([[0.0, 1.0], [1.0, 0.0]])
    yield _case("example_1", False, x, (eye, eye, eye, swap), 2)
    yield _case("example_2_causal", False, x, (eye, eye, eye, swap), 2, _causal(2))

    # Hidden cases.
    batch, length = int(rng.integers(2, 5)), int(rng.integers(3, 11))
    n_heads, d_head = int(rng.choice([2, 4])), int(rng.integers(2, 9))
    yield _case("random_small", True, *_random(rng, batch, length, n_heads, d_head), n_heads)

    yield _case("one_head", True, *_random(rng, 2, 6, 1, 8), 1)
    yield _case("batch_of_one_causal", True, *_random(rng, 1, 9, 3, 4), 3, _causal(9))
    yield _case("length_one", True, *_random(rng, 3, 1, 2, 4), 2)
    yield _case("head_width_one", True, *_random(rng, 2, 5, 6, 1), 6)
    yield _case("padding_mask_b11l", True, *_random(rng, 3, 10, 4, 4), 4, _padding(rng, 3, 10))
    length = 12
    # The same causal mask, given with explicit batch and head axes of length 1.
    yield _case("causal_mask_11ll", True, *_random(rng, 2, length, 2, 6), 2, _causal(length)[None, None])

    # Large weights: the scaled scores reach the hundreds and thousands, so a
    # softmax that does not subtract the row maximum overflows.
    yield _case("large_scores_causal", True, *_random(rng, 2, 8, 2, 8, scale=12.0), 2, _causal(8))

    batch, length = int(rng.integers(1, 4)), int(rng.integers(1, 17))
    n_heads, d_head = int(rng.integers(1, 7)), int(rng.integers(1, 9))
    yield _case("random_any_size", True, *_random(rng, batch, length, n_heads, d_head), n_heads)

    # GPT-2 small: D = 768 split into 12 heads of width 64.
    yield _case("gpt2_small_causal", True, *_random(rng, 1, 128, 12, 64), 12, _causal(128))
    yield _case("gpt2_small_padding", True, *_random(rng, 2, 32, 12, 64), 12, _padding(rng, 2, 32))

    # Probe inputs. 1) Causal: change only token 5; queries 0..4 must not notice.
    x, weights = _random(rng, 2, 8, 3, 4)
    changed = x.copy()
    changed[:, 5, :] = rng.standard_normal((2, 12))
    yield _case("leak_base", True, x, weights, 3, _causal(8), probe=True)
    yield _case("leak_future_token_changed", True, changed, weights, 3, _causal(8), probe=True)

    # 2) No mask, no positions: reversing the tokens must reverse the output.
    x, weights = _random(rng, 2, 7, 3, 4)
    yield _case("order_base", True, x, weights, 3, probe=True)
    yield _case("order_reversed", True, x[:, ::-1, :], weights, 3, probe=True)
