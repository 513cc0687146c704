"""Deterministic test cases for alibi_bias.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``n_heads`` and ``length`` are plain Python ints (kind "int").
Head counts that are not powers of two (3, 5, 6, 7, 12, 20, BLOOM's 112) are where the
slope rule has its second branch; 6, 7, 12 and 20 also tell the interleaved extra slopes
from the first few. The last three cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, n_heads: int, length: int, probe: bool = False) -> dict:
    case = {"name": name, "hidden": hidden, "shape": [int(n_heads), int(length), int(length)],
            "args": {"n_heads": int(n_heads), "length": int(length)}}
    return case | {"probe": True} if probe else case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_two_heads", False, 2, 3)
    yield _case("example_three_heads", False, 3, 3)

    # Hidden cases.
    yield _case("one_head", True, 1, 5)
    yield _case("one_position", True, 4, 1)
    yield _case("four_heads", True, 4, 6)
    yield _case("five_heads", True, 5, 7)
    yield _case("six_heads", True, 6, 8)
    yield _case("seven_heads", True, 7, 9)
    # The paper's 8 heads, and 16.
    yield _case("eight_heads", True, 8, 10)
    yield _case("sixteen_heads", True, 16, 32)
    # GPT-2 small's 12 heads and 20 heads (GPT-2 large): not powers of two.
    yield _case("twelve_heads", True, 12, 40)
    yield _case("twenty_heads", True, 20, 24)
    # MPT-7B's 32 heads, and BLOOM-176B's 112 (64 + 48 interleaved).
    yield _case("mpt_7b_heads", True, 32, 128)
    yield _case("bloom_112_heads", True, 112, 64)
    yield _case("random_any", True, int(rng.integers(1, 41)), int(rng.integers(1, 100)))

    # Probe inputs (never graded): 16 heads' odd-numbered slopes are the 8-head slopes, and
    # 12 heads begin with the 8-head slopes.
    yield _case("probe_8_heads", True, 8, 6, probe=True)
    yield _case("probe_16_heads", True, 16, 6, probe=True)
    yield _case("probe_12_heads", True, 12, 6, probe=True)
