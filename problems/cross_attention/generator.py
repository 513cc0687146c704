"""Deterministic test cases for cross_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. In every graded case the two lengths differ (Lq != Lk), so
a solution that swaps the roles of x and context returns the wrong shape. The
last two cases are probe inputs, never graded: the same queries read a context
and the same context with its rows permuted; they use Lq == Lk so that even a
role-swapping solution returns the reference's shape and the probe can speak.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, context, weights, n_heads: int, probe: bool = False) -> dict:
    args = {
        "x": np.ascontiguousarray(x, dtype=np.float64),
        "context": np.ascontiguousarray(context, dtype=np.float64),
    }
    for key, w in zip(("w_q", "w_k", "w_v", "w_o"), weights):
        args[key] = np.ascontiguousarray(w, dtype=np.float64)
    args["n_heads"] = n_heads
    case = {"name": name, "hidden": hidden, "args": args, "shape": tuple(args["x"].shape)}
    if probe:
        case["probe"] = True
    return case


def _random(rng: np.random.Generator, batch: int, l_q: int, l_k: int, n_heads: int, d_head: int,
            scale: float = 1.0) -> tuple:
    width = n_heads * d_head
    x = rng.standard_normal((batch, l_q, width))
    context = rng.standard_normal((batch, l_k, width))
    # Standard deviation 1/sqrt(D) keeps the projections of order 1.
    weights = tuple(scale * rng.standard_normal((width, width)) / np.sqrt(width) for _ in range(4))
    return x, context, weights


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example (the one worked in statement.md): one head, two queries, three context rows.
    x = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    context = np.array([[[2.0, 0.0], [0.0, 2.0], [0.0, 0.0]]])
    eye = np.eye(2)
    yield _case("example_1", False, x, context, (eye, eye, eye, eye), 1)
    # The same inputs with two heads of width 1.
    yield _case("example_2_two_heads", False, x, context, (eye, eye, eye, eye), 2)

    # Hidden cases.
    batch, l_q, l_k = int(rng.integers(2, 5)), int(rng.integers(2, 9)), int(rng.integers(9, 17))
    n_heads, d_head = int(rng.choice([2, 4])), int(rng.integers(2, 9))
    yield _case("random_small", True, *_random(rng, batch, l_q, l_k, n_heads, d_head), n_heads)
    yield _case("longer_queries_than_context", True, *_random(rng, 2, 12, 5, 3, 4), 3)
    yield _case("one_head", True, *_random(rng, 3, 4, 7, 1, 6), 1)
    yield _case("batch_of_one", True, *_random(rng, 1, 6, 9, 2, 5), 2)
    yield _case("single_query", True, *_random(rng, 2, 1, 8, 4, 3), 4)
    yield _case("single_context_row", True, *_random(rng, 3, 5, 1, 2, 4), 2)
    yield _case("head_width_one", True, *_random(rng, 2, 3, 6, 5, 1), 5)
    # Large weights: scores in the hundreds and more, so the softmax must subtract the row maximum.
    yield _case("large_scores", True, *_random(rng, 2, 4, 6, 2, 8, scale=12.0), 2)

    batch, l_q = int(rng.integers(1, 4)), int(rng.integers(1, 17))
    l_k = int(rng.choice([n for n in range(1, 33) if n != l_q]))
    n_heads, d_head = int(rng.integers(1, 7)), int(rng.integers(1, 9))
    yield _case("random_any_size", True, *_random(rng, batch, l_q, l_k, n_heads, d_head), n_heads)

    # GPT-2 small widths (D = 768, 12 heads of 64): a decoder of 32 tokens reading an encoder of 96.
    yield _case("gpt2_small_widths", True, *_random(rng, 1, 32, 96, 12, 64), 12)
    # ViT-B/16 widths: 8 queries reading 197 image tokens (196 patches + class token).
    yield _case("vit_b16_context", True, *_random(rng, 1, 8, 197, 12, 64), 12)

    # Probe inputs: permuting the context rows must not change the output.
    x, context, weights = _random(rng, 2, 7, 7, 3, 4)
    order = rng.permutation(7)
    order = order if not np.array_equal(order, np.arange(7)) else order[::-1]
    yield _case("context_base", True, x, context, weights, 3, probe=True)
    yield _case("context_rows_permuted", True, x, context[:, order, :], weights, 3, probe=True)
