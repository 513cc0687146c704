"""Deterministic test cases for grouped_query_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Cases without a mask omit "mask", so the default None is tested.
Most cases have at least two key/value heads and groups of at least two query heads:
only then do the mappings h // group (right) and h % H_kv (interleaved) differ. No
query row is ever fully masked. The last four cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, q, k, v, mask=None, probe: bool = False) -> dict:
    q = np.ascontiguousarray(q, dtype=np.float64)
    args = {"q": q, "k": np.ascontiguousarray(k, dtype=np.float64), "v": np.ascontiguousarray(v, dtype=np.float64)}
    if mask is not None:
        args["mask"] = np.ascontiguousarray(mask, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(q.shape), "args": args}
    return case | {"probe": True} if probe else case


def _qkv(rng: np.random.Generator, batch: int, heads: int, kv_heads: int, length: int, width: int,
         scale: float = 1.0):
    return (scale * rng.standard_normal((batch, heads, length, width)),
            scale * rng.standard_normal((batch, kv_heads, length, width)),
            rng.standard_normal((batch, kv_heads, length, width)))


def _causal(length: int) -> np.ndarray:
    return np.triu(np.full((length, length), -np.inf), k=1)


def _padding(rng: np.random.Generator, batch: int, length: int) -> np.ndarray:
    # (B, 1, 1, L): each sequence keeps a random prefix of at least one key.
    mask = np.zeros((batch, 1, 1, length))
    for b, kept in enumerate(rng.integers(1, length + 1, size=batch)):
        mask[b, ..., kept:] = -np.inf
    return mask


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    q = np.array([[[[1.0, 0.0], [0.0, 2.0]], [[0.0, 0.0], [2.0, 0.0]]]])      # (1, 2, 2, 2)
    k = np.array([[[[1.0, 1.0], [1.0, -1.0]]]])                               # (1, 1, 2, 2)
    v = np.array([[[[1.0, 0.0], [0.0, 1.0]]]])
    yield _case("example_one_kv_head", False, q, k, v)
    single = np.ones((1, 4, 1, 2))
    kv = np.ones((1, 2, 1, 2))
    values = np.array([[[[10.0, 11.0]], [[20.0, 21.0]]]])                    # (1, 2, 1, 2)
    yield _case("example_two_groups", False, single, kv, values)

    # Hidden cases (the judge runs them smallest first).
    # One query and one key: every query head returns its kv head's value, so the output
    # shows exactly which kv head each query head was given.
    yield _case("single_position", True, *_qkv(rng, 2, 8, 2, 1, 4))
    yield _case("mha_one_head_per_group", True, *_qkv(rng, 2, 4, 4, 5, 8))
    yield _case("mqa_one_kv_head", True, *_qkv(rng, 2, 6, 1, 6, 8))
    yield _case("groups_of_two", True, *_qkv(rng, 2, 4, 2, 7, 8))
    length = 9
    yield _case("groups_of_four_causal", True, *_qkv(rng, 2, 8, 2, length, 16), _causal(length))
    yield _case("three_kv_heads_padding", True, *_qkv(rng, 3, 6, 3, 8, 8), _padding(rng, 3, 8))
    # A different mask for every query head (a band of width 3 around the diagonal, shifted
    # by the head index): the mask's head axis lines up with the query heads, not the kv heads.
    band = np.full((1, 6, 8, 8), -np.inf)
    rows, cols = np.indices((8, 8))
    for h in range(6):
        band[0, h][np.abs(rows - cols + h % 3 - 1) <= 1] = 0.0
        band[0, h][rows == cols] = 0.0
    yield _case("per_head_mask", True, *_qkv(rng, 1, 6, 2, 8, 8), band)
    # Scores in the thousands: exp overflows unless the row maximum is subtracted.
    yield _case("large_scores", True, *_qkv(rng, 1, 4, 2, 6, 16, scale=30.0))
    yield _case("width_one", True, *_qkv(rng, 2, 6, 3, 5, 1))
    # Llama-2-70B's grouping (64 query heads over 8 kv heads, groups of 8) with 16 heads, and
    # Mistral-7B's 32 query heads over 8 kv heads, both with head width 128 and a causal mask.
    yield _case("llama2_70b_grouping", True, *_qkv(rng, 1, 16, 2, 64, 128), _causal(64))
    yield _case("mistral_7b_heads", True, *_qkv(rng, 1, 32, 8, 96, 128), _causal(96))
    kv_heads, group = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    length = int(rng.integers(1, 20))
    random_mask = _causal(length) if rng.random() < 0.5 else None
    yield _case("random_any_shape", True, *_qkv(rng, int(rng.integers(1, 4)), kv_heads * group, kv_heads, length,
                                               int(rng.integers(1, 17))), random_mask)

    # Probe inputs (never graded).
    # 1. Only key/value head 1 changes: query heads 0 and 1 (group 0) must not notice.
    q, k, v = _qkv(rng, 1, 4, 2, 5, 8)
    k2, v2 = k.copy(), v.copy()
    k2[:, 1] = rng.standard_normal((1, 5, 8))
    v2[:, 1] = rng.standard_normal((1, 5, 8))
    yield _case("probe_groups_base", True, q, k, v, probe=True)
    yield _case("probe_kv_head_1_changed", True, q, k2, v2, probe=True)
    # 2. With a causal mask, changing the last key and value leaves every earlier query unchanged.
    q, k, v = _qkv(rng, 1, 4, 2, 6, 8)
    k2, v2 = k.copy(), v.copy()
    k2[:, :, -1] = rng.standard_normal((1, 2, 8))
    v2[:, :, -1] = 5.0 + rng.standard_normal((1, 2, 8))
    yield _case("probe_causal_base", True, q, k, v, _causal(6), probe=True)
    yield _case("probe_last_key_changed", True, q, k2, v2, _causal(6), probe=True)
