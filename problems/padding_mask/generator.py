"""Deterministic test cases for padding_mask.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``lengths`` is a float64 array of whole numbers (kind
"array"); ``max_len`` is a plain Python int (kind "int").
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, lengths, max_len: int) -> dict:
    lengths = np.ascontiguousarray(lengths, dtype=np.float64)
    return {
        "name": name,
        "hidden": hidden,
        "args": {"lengths": lengths, "max_len": int(max_len)},
        "shape": [int(lengths.shape[0]), 1, 1, int(max_len)],
    }


def _lengths(rng: np.random.Generator, batch: int, max_len: int, low: int = 1) -> np.ndarray:
    return rng.integers(low, max_len + 1, size=batch).astype(np.float64)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_two_sequences", False, [3.0, 1.0], 4)
    yield _case("example_no_padding", False, [2.0], 2)

    # Hidden cases. The judge runs them smallest first, and a known mistake's
    # declared status is the one it gets on the first hidden case it fails. In
    # this one every sequence is strictly shorter than max_len, so each mistake
    # shows its own symptom.
    max_len = int(rng.integers(6, 13))
    batch = int(rng.integers(3, 7))
    yield _case("random_batch", True, rng.integers(1, max_len, size=batch).astype(np.float64), max_len)

    yield _case("one_sequence", True, [5.0], 9)
    yield _case("shortest_and_longest_together", True, [1.0, 16.0, 8.0, 15.0, 2.0], 16)
    yield _case("no_padding_anywhere", True, np.full(4, 7.0), 7)
    yield _case("only_one_real_token_each", True, np.ones(5), 10)
    yield _case("max_len_one", True, np.ones(3), 1)
    yield _case("equal_lengths", True, np.full(6, 3.0), 12)
    # BERT-base style batch: 32 sequences padded to 128 tokens.
    yield _case("bert_batch_128", True, _lengths(rng, 32, 128), 128)
    # GPT-2 small's full context of 1024 tokens, 8 sequences.
    yield _case("gpt2_context_1024", True, _lengths(rng, 8, 1024), 1024)
    yield _case("large_batch", True, _lengths(rng, 64, 64), 64)

    max_len = int(rng.integers(1, 300))
    yield _case("random_any_size", True, _lengths(rng, int(rng.integers(1, 17)), max_len), max_len)

    # Probe input (never graded): every entry of the output must be 0 or -inf.
    yield {"name": "probe_three_sequences", "probe": True,
           "args": {"lengths": np.array([2.0, 5.0, 3.0]), "max_len": 6}}
