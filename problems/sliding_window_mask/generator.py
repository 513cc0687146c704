"""Deterministic test cases for sliding_window_mask.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``length`` and ``window`` are plain Python ints (kind "int").
The cases sit on the boundaries where an off-by-one shows: a window of 1, a window one
shorter than the sequence, equal to it and longer than it, and a sequence of one token.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, length: int, window: int) -> dict:
    return {"name": name, "hidden": hidden, "shape": [int(length), int(length)],
            "args": {"length": int(length), "window": int(window)}}


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_window_3", False, 5, 3)
    yield _case("example_window_1", False, 4, 1)

    # Hidden cases.
    yield _case("one_token", True, 1, 1)
    yield _case("one_token_wide_window", True, 1, 4)
    yield _case("window_1", True, 6, 1)
    yield _case("window_2", True, 7, 2)
    # One shorter than the sequence: only the last query loses a key (key 0).
    yield _case("window_one_short", True, 9, 8)
    # As long as the sequence, and longer: the ordinary causal mask.
    yield _case("window_equals_length", True, 8, 8)
    yield _case("window_longer_than_sequence", True, 6, 10)
    yield _case("window_4_of_16", True, 16, 4)
    length = int(rng.integers(20, 80))
    yield _case("random_medium", True, length, int(rng.integers(2, length)))
    # A window of a quarter of the sequence.
    yield _case("quarter_window_1024", True, 1024, 256)
    # Mistral 7B and Gemma 2's local layers: a 4096 window in an 8192 context, here 512 of 1024.
    yield _case("half_context_window", True, 1024, 512)
    length = int(rng.integers(1, 600))
    yield _case("random_any", True, length, int(rng.integers(1, length + 3)))

    # Probe input (never graded): every entry must be 0 or -inf.
    yield {"name": "probe_length_10_window_3", "probe": True, "args": {"length": 10, "window": 3}}
