"""Deterministic test cases for paged_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``block_table`` and ``seq_lens`` are int64 (kind "int_array"). Each case allocates every
sequence the pages it needs from a shuffled pool (so page order in the pool says nothing about
position order), marks the rest of its table -1, and fills every slot no sequence owns, the
unfilled end of each last page included, with large numbers a correct solution never reads.
The last two cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _paged(rng: np.random.Generator, seq_lens, heads: int, dim: int, page_size: int, spare_pages: int = 3,
           max_pages: int | None = None, scale: float = 1.0):
    """(q, k_pages, v_pages, block_table, seq_lens) with the sequences' pages scattered over the pool."""
    seq_lens = np.asarray(seq_lens, dtype=np.int64)
    needed = [-(-int(n) // page_size) for n in seq_lens]
    max_pages = max_pages or max(needed)
    pool = sum(needed) + spare_pages
    order = rng.permutation(pool)
    k = 40.0 * rng.standard_normal((pool, page_size, heads, dim))  # slots no position owns: never read
    v = 40.0 * rng.standard_normal((pool, page_size, heads, dim))
    table = np.full((len(seq_lens), max_pages), -1, dtype=np.int64)
    start = 0
    for b, (n, count) in enumerate(zip(seq_lens, needed)):
        table[b, :count] = order[start:start + count]
        start += count
        for t in range(int(n)):
            page, offset = table[b, t // page_size], t % page_size
            k[page, offset] = scale * rng.standard_normal((heads, dim))
            v[page, offset] = rng.standard_normal((heads, dim))
    q = scale * rng.standard_normal((len(seq_lens), heads, dim))
    return q, k, v, table, seq_lens


def _case(name: str, hidden: bool, q, k, v, table, lens, probe: bool = False) -> dict:
    case = {"name": name, "hidden": hidden, "shape": list(q.shape),
            "args": {"q": q, "k_pages": k, "v_pages": v, "block_table": np.ascontiguousarray(table, dtype=np.int64),
                     "seq_lens": np.ascontiguousarray(lens, dtype=np.int64)}}
    return case | {"probe": True} if probe else case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one shown in statement.md (pages of 2 slots, the sequence in pages 2 then 0).
    q = np.array([[[1.0, 0.0]]])
    k = np.array([[[[0.0, 1.0]], [[9.0, 9.0]]], [[[9.0, 9.0]], [[9.0, 9.0]]], [[[1.0, 0.0]], [[2.0, 0.0]]]])
    v = np.array([[[[5.0, 5.0]], [[9.0, 9.0]]], [[[9.0, 9.0]], [[9.0, 9.0]]], [[[1.0, 0.0]], [[0.0, 1.0]]]])
    yield _case("example_two_pages", False, q, k, v, [[2, 0, -1]], [3])
    yield _case("example_first_position_only", False, q, k, v, [[2, -1, -1]], [1])

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_position", True, *_paged(rng, [1], 2, 4, 4))
    yield _case("page_size_one", True, *_paged(rng, [5, 3], 2, 4, 1))
    yield _case("exactly_full_pages", True, *_paged(rng, [8, 12], 2, 8, 4))
    yield _case("one_past_a_page", True, *_paged(rng, [9, 5], 2, 8, 4))
    yield _case("lengths_differ", True, *_paged(rng, [1, 17, 6, 32], 3, 8, 8, max_pages=6))
    yield _case("spare_table_entries", True, *_paged(rng, [10, 3], 2, 8, 4, max_pages=8, spare_pages=10))
    yield _case("large_scores", True, *_paged(rng, [20, 7], 2, 16, 8, scale=12.0))
    yield _case("one_head", True, *_paged(rng, [13, 29, 2], 1, 16, 16))
    # vLLM's default pages of 16 positions, sequences up to 600 positions, 8 heads of 64.
    yield _case("vllm_pages", True, *_paged(rng, [600, 77, 310, 16], 8, 64, 16, spare_pages=20))

    # Probe inputs (never graded): another sequence's pages and the unfilled slots can hold anything.
    q, k, v, table, lens = _paged(rng, [11, 9], 2, 8, 4, spare_pages=4)
    other_k, other_v = k.copy(), v.copy()
    owned = np.zeros(k.shape[:2], dtype=bool)
    for t in range(int(lens[0])):
        owned[table[0, t // 4], t % 4] = True
    other_k[~owned] = -other_k[~owned]
    other_v[~owned] = 2.0 * other_v[~owned] + 1.0
    yield _case("probe_others_base", True, q, k, v, table, lens, probe=True)
    yield _case("probe_others_changed", True, q, other_k, other_v, table, lens, probe=True)
