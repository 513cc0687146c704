"""Deterministic test cases for scaled_dot_product_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Cases without a mask omit "mask" so the default is tested.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, Q, K, V, mask=None) -> dict:
    args = {
        "Q": np.ascontiguousarray(Q, dtype=np.float64),
        "K": np.ascontiguousarray(K, dtype=np.float64),
        "V": np.ascontiguousarray(V, dtype=np.float64),
    }
    if mask is not None:
        args["mask"] = np.ascontiguousarray(mask, dtype=np.float64)
    return {"name": name, "hidden": hidden, "args": args}


def _qkv(rng: np.random.Generator, lead: tuple, l_q: int, l_k: int, d_k: int, d_v: int, scale=1.0):
    Q = scale * rng.standard_normal((*lead, l_q, d_k))
    K = scale * rng.standard_normal((*lead, l_k, d_k))
    V = rng.standard_normal((*lead, l_k, d_v))
    return Q, K, V


def _causal(length: int) -> np.ndarray:
    # 0 on and below the diagonal, -inf above: query i sees keys 0..i.
    return np.triu(np.full((length, length), -np.inf), k=1)


def _padding(rng: np.random.Generator, batch: int, l_k: int, middle: tuple) -> np.ndarray:
    # Key j of sequence b is padding when j >= its length; key 0 is always real,
    # so no query row is ever fully masked.
    lengths = rng.integers(1, l_k + 1, size=batch)
    lengths[0] = max(1, l_k - 1)
    mask = np.zeros((batch, *middle, l_k))
    for b, length in enumerate(lengths):
        mask[b, ..., length:] = -np.inf
    return mask


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples (the ones worked in statement.md).
    Q = np.array([[1.0, 0.0], [0.0, 1.0]])
    K = np.array([[1.0, 0.0], [0.0, 1.0]])
    V = np.array([[1.0, 2.0], [3.0, 4.0]])
    yield _case("example_1", False, Q, K, V)
    yield _case("example_2_causal", False, Q, K, V, _causal(2))

    # Hidden: no leading dims, cross-attention shapes (L_q != L_k, d_k != d_v).
    yield _case("unbatched", True, *_qkv(rng, (), 5, 7, 4, 3))

    batch, l_q, l_k = int(rng.integers(2, 5)), int(rng.integers(2, 13)), int(rng.integers(2, 13))
    d_k, d_v = int(rng.integers(5, 17)), int(rng.integers(2, 17))
    yield _case("one_leading_dim", True, *_qkv(rng, (batch,), l_q, l_k, d_k, d_v))

    yield _case("two_leading_dims", True, *_qkv(rng, (2, 3), 6, 9, 8, 5))

    length = int(rng.integers(4, 11))
    yield _case("causal_mask_batched", True, *_qkv(rng, (3,), length, length, 6, 4), _causal(length))

    batch, l_k = 3, 10
    yield _case(
        "padding_mask_b11lk",
        True,
        *_qkv(rng, (batch, 2), 4, l_k, 8, 6),
        _padding(rng, batch, l_k, middle=(1, 1)),
    )

    # Scores of order 1e3: exp(score) overflows float64 without the max shift.
    yield _case("large_scores", True, *_qkv(rng, (2,), 6, 8, 8, 4, scale=32.0))
    length = 7
    yield _case(
        "large_scores_causal",
        True,
        *_qkv(rng, (2, 2), length, length, 16, 3, scale=32.0),
        _causal(length),
    )

    yield _case(
        "single_query_padding_b1lk",
        True,
        *_qkv(rng, (4,), 1, 6, 5, 3),
        _padding(rng, 4, 6, middle=(1,)),
    )
    yield _case("single_key", True, *_qkv(rng, (2,), 5, 1, 4, 6))
    yield _case("key_width_one", True, *_qkv(rng, (3,), 4, 6, 1, 2))

    _, K, V = _qkv(rng, (2,), 4, 5, 3, 3)
    yield _case("zero_queries_uniform_weights", True, np.zeros((2, 4, 3)), K, V)

    length = 64
    yield _case("large_causal_heads", True, *_qkv(rng, (2, 4), length, length, 32, 16), _causal(length))
