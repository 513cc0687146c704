"""Deterministic test cases for shifted_window_mask.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Every input is a size; the sizes are Swin's where a test says so. The last case is a
probe input, whose mask may hold only 0 and -inf.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, H: int, W: int, window: int, shift: int, probe: bool = False) -> dict:
    windows = (H // window) * (W // window)
    args = {"H": int(H), "W": int(W), "window": int(window), "shift": int(shift)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": [windows, window * window, window * window]}
    if probe:
        case["probe"] = True
    return case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md, a 4 x 4 map in windows of 2, shifted by 1.
    yield _case("example_4x4_window_2_shift_1", False, 4, 4, 2, 1)

    # Hidden cases (run smallest first).
    # No shift: every window holds one region, the mask is all 0 (Swin uses no mask then).
    yield _case("no_shift_all_zero", True, 4, 6, 2, 0)
    # One window covering the whole map: its four corners come from four regions.
    yield _case("one_window_whole_map", True, 3, 3, 3, 1)
    # Windows of one pixel: nothing to mask.
    yield _case("window_1", True, 3, 2, 1, 0)
    # Rectangular maps: the row and column regions differ, and so does the windows' order.
    yield _case("wide_map", True, 4, 8, 2, 1)
    yield _case("tall_map", True, 9, 3, 3, 1)
    # A shift of window - 1, the largest allowed.
    yield _case("shift_window_minus_1", True, 8, 8, 4, 3)
    yield _case("shift_not_half_the_window", True, 12, 8, 4, 1)
    window = int(rng.integers(2, 6))
    yield _case("random_any_size", True, window * int(rng.integers(1, 4)), window * int(rng.integers(1, 4)), window,
                int(rng.integers(1, window)))
    # Swin-T's stages at 224 x 224: 56 x 56 and 28 x 28 maps in windows of 7, shifted by 3.
    yield _case("swin_t_stage_2", True, 28, 28, 7, 3)
    yield _case("swin_t_stage_1", True, 56, 56, 7, 3)

    # Probe input: every entry must be 0 or -inf.
    yield _case("mask_values", True, 8, 12, 4, 2, probe=True)
