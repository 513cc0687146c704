"""Deterministic test cases for rolling_buffer_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``pos`` and ``window`` are plain Python ints. Each case writes the keys and values of the
positions a real decode would have written (position p in slot p % window, the last write
winning) and fills the slots no position has reached with large numbers, which a correct
solution never reads. The cases sit on the boundaries: pos = 0, pos = window - 2, window - 1 and
window (the first wrap), several wraps, and a window of 1. The last two are probe inputs.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _buffers(rng: np.random.Generator, b: int, h: int, d: int, pos: int, window: int, scale: float = 1.0):
    """The rolling buffers after writing positions 0..pos, and the query at pos."""
    k = 40.0 * rng.standard_normal((b, window, h, d))  # unwritten slots: large, and never attended to
    v = 40.0 * rng.standard_normal((b, window, h, d))
    for p in range(max(0, pos - window + 1), pos + 1):
        k[:, p % window] = scale * rng.standard_normal((b, h, d))
        v[:, p % window] = rng.standard_normal((b, h, d))
    return scale * rng.standard_normal((b, h, d)), k, v


def _case(name: str, hidden: bool, q, k, v, pos: int, window: int, probe: bool = False) -> dict:
    case = {"name": name, "hidden": hidden, "shape": list(q.shape),
            "args": {"q": q, "k_buffer": k, "v_buffer": v, "pos": int(pos), "window": int(window)}}
    return case | {"probe": True} if probe else case


def _random(name: str, rng: np.random.Generator, b: int, h: int, d: int, pos: int, window: int, scale: float = 1.0):
    return _case(name, True, *_buffers(rng, b, h, d, pos, window, scale), pos, window)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md (window 3, before and after the first wrap).
    q = np.array([[[1.0, 0.0]]])
    k = np.array([[[[1.0, 0.0]], [[0.0, 1.0]], [[9.0, 9.0]]]])
    v = np.array([[[[1.0, 2.0]], [[3.0, 4.0]], [[9.0, 9.0]]]])
    yield _case("example_pos_1", False, q, k, v, 1, 3)
    k = np.array([[[[0.0, 2.0]], [[2.0, 0.0]], [[0.0, 0.0]]]])
    v = np.array([[[[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]]]])
    yield _case("example_pos_4", False, q, k, v, 4, 3)

    # Hidden cases (the judge runs them smallest first).
    yield _random("first_token", rng, 2, 2, 4, 0, 4)
    yield _random("window_of_one", rng, 2, 3, 4, 7, 1)
    yield _random("two_short_of_full", rng, 1, 2, 8, 3, 5)
    yield _random("just_full", rng, 2, 2, 8, 4, 5)
    yield _random("first_wrap", rng, 2, 2, 8, 5, 5)
    yield _random("several_wraps", rng, 3, 4, 8, 37, 6)
    yield _random("large_scores", rng, 2, 2, 16, 20, 8, scale=12.0)
    yield _random("early_in_a_long_window", rng, 2, 4, 16, 9, 64)
    yield _random("late_in_a_long_window", rng, 2, 4, 16, 300, 64)
    # Mistral 7B's head size and a window of 1,024 slots, long after the first wrap.
    yield _random("long_window_wrapped", rng, 1, 4, 128, 5000, 1024)

    # Probe inputs (never graded): before the first wrap, the slots no position reached can hold anything.
    q, k, v = _buffers(rng, 2, 2, 8, 5, 16)
    other_k, other_v = k.copy(), v.copy()
    other_k[:, 6:] = -other_k[:, 6:]
    other_v[:, 6:] = 3.0 * other_v[:, 6:]
    yield _case("probe_unwritten_base", True, q, k, v, 5, 16, probe=True)
    yield _case("probe_unwritten_changed", True, q, other_k, other_v, 5, 16, probe=True)
