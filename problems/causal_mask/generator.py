"""Deterministic test cases for causal_mask.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``length`` is a plain Python int (kind "int" in problem.toml).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, length: int) -> dict:
    return {"name": name, "hidden": hidden, "args": {"length": int(length)}, "shape": [int(length), int(length)]}


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_length_3", False, 3)
    yield _case("example_length_1", False, 1)

    # Hidden cases.
    yield _case("length_2", True, 2)
    yield _case("length_4", True, 4)
    yield _case("length_5", True, 5)
    yield _case("random_short", True, int(rng.integers(6, 17)))
    yield _case("random_medium", True, int(rng.integers(17, 100)))
    yield _case("length_64", True, 64)
    # A GPT-2 training chunk of 128 tokens, and GPT-2's full context of 1024.
    yield _case("gpt2_chunk_128", True, 128)
    yield _case("length_257", True, 257)
    yield _case("gpt2_context_1024", True, 1024)
    yield _case("random_any_length", True, int(rng.integers(1, 513)))

    # Probe input (never graded): every entry of the output must be 0 or -inf.
    yield {"name": "probe_length_6", "probe": True, "args": {"length": 6}}
