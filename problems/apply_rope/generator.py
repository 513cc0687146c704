"""Deterministic test cases for apply_rope.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. The last two cases are probe inputs, never graded: the same
rows at positions p and p + 13, whose pairwise dot products must agree.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, positions, probe: bool = False) -> dict:
    args = {
        "x": np.ascontiguousarray(x, dtype=np.float64),
        "positions": np.ascontiguousarray(positions, dtype=np.float64),
    }
    case = {"name": name, "hidden": hidden, "args": args, "shape": tuple(args["x"].shape)}
    if probe:
        case["probe"] = True
    return case


def _steps(length: int, start: float = 0.0, step: float = 1.0) -> np.ndarray:
    return start + step * np.arange(length, dtype=np.float64)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples (the ones worked in statement.md).
    yield _case("example_1", False, np.array([[1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 1.0, 0.0]]), [0.0, 1.0])
    yield _case("example_2", False, np.array([[[1.0, 0.0], [0.0, 1.0], [3.0, 4.0]]]), [2.0, 0.5, -1.0])

    # Hidden cases.
    yield _case("unbatched", True, rng.standard_normal((7, 8)), _steps(7))
    yield _case("batch_and_heads", True, rng.standard_normal((2, 3, 10, 16)), _steps(10))
    yield _case("width_two", True, rng.standard_normal((3, 5, 2)), rng.uniform(0.0, 20.0, 5))
    yield _case("length_one", True, rng.standard_normal((2, 1, 6)), [37.0])
    yield _case("position_zero_is_identity", True, rng.standard_normal((2, 4, 8)), np.zeros(4))
    # Position interpolation (stretching a trained context): fractional positions.
    yield _case("fractional_positions", True, rng.standard_normal((2, 12, 10)), _steps(12, step=0.25))
    yield _case("unsorted_negative_positions", True, rng.standard_normal((3, 9, 12)), rng.uniform(-50.0, 50.0, 9))
    # Far positions: the fastest pair turns thousands of radians, the slowest less than one.
    yield _case("far_positions", True, rng.standard_normal((2, 16, 32)), rng.uniform(0.0, 8192.0, 16))
    yield _case("large_magnitudes", True, 1e3 * rng.standard_normal((2, 6, 8)), rng.uniform(0.0, 100.0, 6))

    # GPT-2-sized heads (12 heads of width 64, 128 tokens), and LLaMA-sized heads of width 128
    # while decoding 64 tokens at offset 1000 of a longer context.
    yield _case("gpt2_heads", True, rng.standard_normal((1, 12, 128, 64)), _steps(128))
    yield _case("llama_heads_offset", True, rng.standard_normal((1, 4, 64, 128)), _steps(64, start=1000.0))

    n_lead = int(rng.integers(0, 3))
    lead = tuple(int(n) for n in rng.integers(1, 4, size=n_lead))
    length, d = int(rng.integers(1, 33)), 2 * int(rng.integers(1, 17))
    yield _case("random_any_size", True, rng.standard_normal((*lead, length, d)), rng.uniform(0.0, 500.0, length))

    # Probe inputs: the same rows, every position shifted by 13.
    x = rng.standard_normal((2, 6, 8))
    positions = rng.uniform(0.0, 20.0, 6)
    yield _case("shift_base", True, x, positions, probe=True)
    yield _case("shift_by_13", True, x, positions + 13.0, probe=True)
