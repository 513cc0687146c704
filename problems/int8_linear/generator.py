"""Deterministic test cases for int8_linear.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``q`` is int8 (kind "int8_array"), made by quantising a random weight the way
quantize_int8 does (one scale per output column), so the values span [-127, 127]. Widths that are
not multiples of common tile sizes (300, 1000, 1) catch a last tile that is left out. The last
test is the memory test: q is 2048 x 4096 (8 MB as int8), whose float64 copy (64 MB) does not
fit in the limit.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _quantised(rng: np.random.Generator, fan_in: int, fan_out: int) -> tuple[np.ndarray, np.ndarray]:
    w = rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)
    scale = np.abs(w).max(axis=0) / 127
    return np.clip(np.round(w / scale), -127, 127).astype(np.int8), scale


def _case(name: str, hidden: bool, x, q, scale, bias) -> dict:
    x, scale, bias = (np.ascontiguousarray(a, dtype=np.float64) for a in (x, scale, bias))
    q = np.ascontiguousarray(q, dtype=np.int8)
    return {"name": name, "hidden": hidden, "shape": list(x.shape[:-1]) + [q.shape[1]],
            "args": {"x": x, "q": q, "scale": scale, "bias": bias}}


def _random(name: str, rng: np.random.Generator, lead: tuple, fan_in: int, fan_out: int, bias: bool = True):
    q, scale = _quantised(rng, fan_in, fan_out)
    b = 0.1 * rng.standard_normal(fan_out) if bias else np.zeros(fan_out)
    return _case(name, True, rng.standard_normal(lead + (fan_in,)), q, scale, b)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the one shown in statement.md.
    yield _case("example", False, [[1.0, 2.0], [0.5, -1.0]], [[127, -64, 0], [10, 127, -127]],
                [0.01, 0.02, 0.5], [0.0, 1.0, -1.0])

    # Hidden cases (the judge runs them smallest first).
    yield _random("one_input_one_output", rng, (3,), 1, 1)
    yield _random("vector_input", rng, (), 16, 12)
    yield _random("no_bias", rng, (4,), 32, 20, bias=False)
    yield _random("one_output_column", rng, (5,), 64, 1)
    yield _random("batch_of_sequences", rng, (2, 3), 24, 40)
    yield _random("width_300", rng, (4,), 128, 300)
    yield _random("width_1000", rng, (2,), 96, 1000)
    yield _random("wide_input", rng, (2,), 1500, 64)
    # GPT-2's feed-forward projection c_fc (768, 3072) on a batch of 8 tokens.
    yield _random("gpt2_c_fc", rng, (8,), 768, 3072)
    # The memory test: a whole float64 copy of q is 64 MB, twice the limit.
    yield _random("large_weight_memory", rng, (4,), 2048, 4096)
