"""Deterministic test cases for llama3_rope_frequencies.

The loader seeds ``rng`` from [tests].seed in problem.toml. Every argument is a Python scalar: ``head_dim`` and
``original_max_len`` ints, the rest floats. The scaled frequencies are continuous in the wavelength (the blend
meets the kept frequency at one end and the divided one at the other), so a wavelength that lands on a
boundary gives the same value whichever side a solution puts it on.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, head_dim: int, base: float, factor: float, low: float, high: float,
          original_max_len: int, probe: bool = False) -> dict:
    case = {"name": name, "hidden": hidden, "shape": [head_dim // 2], "args": {
        "head_dim": int(head_dim), "base": float(base), "factor": float(factor), "low_freq_factor": float(low),
        "high_freq_factor": float(high), "original_max_len": int(original_max_len)}}
    return case | {"probe": True} if probe else case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md (one pair in each region), and Llama 3.1's
    # own settings on a head of 16.
    yield _case("example_three_regions", False, 8, 10000.0, 4.0, 1.0, 4.0, 1024)
    yield _case("example_llama31_settings_head_16", False, 16, 500000.0, 8.0, 1.0, 4.0, 8192)

    # Hidden cases. Llama 3.1 8B/70B/405B as shipped (rope_scaling in config.json), and Llama 3.2's 32x.
    yield _case("llama31_8b", True, 128, 500000.0, 8.0, 1.0, 4.0, 8192)
    yield _case("llama32_factor_32", True, 128, 500000.0, 32.0, 1.0, 4.0, 8192)
    # factor 1: nothing is stretched, the plain RoPE frequencies come back.
    yield _case("factor_one", True, 64, 10000.0, 1.0, 1.0, 4.0, 4096)
    # Every wavelength shorter than original_max_len / high_freq_factor: all kept.
    yield _case("all_kept", True, 8, 10000.0, 8.0, 1.0, 4.0, 1_000_000_000)
    # Every wavelength (2 pi and up) longer than original_max_len / low_freq_factor = 1: all divided.
    yield _case("all_divided", True, 16, 10000.0, 8.0, 1.0, 4.0, 1)
    # Every wavelength between the two (5 and 10000): all blended; low_freq_factor below 1.
    yield _case("all_blended", True, 8, 10000.0, 6.0, 0.1, 200.0, 1000)
    # One pair, wavelength 2 pi.
    yield _case("head_dim_two", True, 2, 10000.0, 8.0, 1.0, 4.0, 16)
    # Pair 0's wavelength is 2 pi and long = 64 / (64 / (2 pi)): on the boundary, within rounding.
    yield _case("wavelength_on_a_boundary", True, 4, 10000.0, 8.0, 64.0 / (2.0 * np.pi), 40.0, 64)
    # Head 256, base 1e6: the last frequencies are near 1e-6 before the division.
    yield _case("wide_head_large_base", True, 256, 1_000_000.0, 16.0, 1.0, 4.0, 32768)
    # A narrow blend (high_freq_factor just above low_freq_factor).
    yield _case("narrow_blend", True, 128, 500000.0, 8.0, 1.0, 1.5, 8192)
    for i in range(2):
        head_dim = int(rng.choice([32, 64, 96, 128]))
        low = float(rng.uniform(0.5, 2.0))
        yield _case(f"random_settings_{i + 1}", True, head_dim, float(10 ** rng.uniform(4, 6)),
                    float(rng.uniform(2, 64)), low, low + float(rng.uniform(1, 8)), int(rng.integers(512, 32768)))

    # Probe input (never graded): the frequencies fall from pair to pair.
    yield _case("probe_falls", True, 128, 500000.0, 8.0, 1.0, 4.0, 8192, probe=True)
