"""Deterministic test cases for prefill_chunks.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``prompt_lens`` is int64 (kind "int_array"); ``chunk_size`` and ``token_budget`` are plain
Python ints. The cases cover a budget smaller than one chunk, a budget that is a multiple of the
chunk and one that is not, empty prompts (some and all), one sequence, and a batch served over
many steps. Each case declares its shape, (S, B), from the reference's own count of steps.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _steps(lens: np.ndarray, chunk: int, budget: int) -> int:
    remaining, steps = lens.copy(), 0
    while remaining.sum() > 0:
        left = budget
        for b in range(len(remaining)):
            take = min(remaining[b], chunk, left)
            remaining[b] -= take
            left -= take
        steps += 1
    return steps


def _case(name: str, hidden: bool, lens, chunk: int, budget: int) -> dict:
    lens = np.ascontiguousarray(lens, dtype=np.int64)
    return {"name": name, "hidden": hidden, "shape": [_steps(lens, chunk, budget), len(lens)],
            "args": {"prompt_lens": lens, "chunk_size": int(chunk), "token_budget": int(budget)}}


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_budget_8", False, [5, 3, 9], 4, 8)
    yield _case("example_budget_below_chunk", False, [4, 0, 2], 4, 3)

    # Hidden cases (the judge runs them smallest first).
    yield _case("all_empty", True, [0, 0, 0], 4, 8)
    yield _case("one_sequence", True, [11], 4, 6)
    yield _case("one_token_budget", True, [2, 3], 5, 1)
    yield _case("budget_below_chunk", True, [7, 5, 0, 6], 8, 5)
    yield _case("budget_a_multiple_of_chunk", True, [10, 4, 13, 7], 4, 8)
    yield _case("budget_not_a_multiple", True, [10, 4, 13, 7], 4, 10)
    yield _case("empty_between", True, [6, 0, 0, 9, 0, 3], 3, 7)
    yield _case("chunk_larger_than_prompts", True, [3, 5, 2], 64, 6)
    yield _case("budget_covers_everything", True, [3, 5, 2], 8, 100)
    yield _case("random_batch", True, rng.integers(0, 60, size=8), int(rng.integers(4, 17)), int(rng.integers(10, 40)))
    # A vLLM-like setting: long prompts, 512-token chunks, a 2,048-token step.
    yield _case("long_prompts", True, rng.integers(100, 5000, size=16), 512, 2048)
