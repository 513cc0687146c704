"""Deterministic test cases for window_partition.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. The last two cases are probe inputs: the same feature maps, different only inside the
first window of the first image.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, window: int, probe: bool = False) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    batch, height, width, channels = x.shape
    shape = [batch * (height // window) * (width // window), window * window, channels]
    case = {"name": name, "hidden": hidden, "args": {"x": x, "window": int(window)}, "shape": shape}
    if probe:
        case["probe"] = True
    return case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md, each pixel's value its raster index.
    yield _case("example_4x4_window_2", False, np.arange(16.0).reshape(1, 4, 4, 1), 2)

    # Hidden cases (run smallest first).
    yield _case("one_window_the_whole_map", True, rng.standard_normal((2, 3, 3, 2)), 3)
    yield _case("window_1_every_pixel", True, rng.standard_normal((1, 3, 2, 4)), 1)
    yield _case("one_channel", True, rng.standard_normal((2, 4, 6, 1)), 2)
    # Rectangular maps: rows and columns of windows differ, so their order shows.
    yield _case("wide_map_2x3_windows", True, rng.standard_normal((1, 4, 6, 3)), 2)
    yield _case("tall_map_3x1_windows", True, rng.standard_normal((2, 9, 3, 2)), 3)
    yield _case("batch_of_three", True, rng.standard_normal((3, 6, 6, 5)), 3)
    yield _case("window_7_on_14x21", True, rng.standard_normal((1, 14, 21, 4)), 7)
    window = int(rng.integers(1, 5))
    rows, cols = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    yield _case("random_any_size", True, rng.standard_normal((int(rng.integers(1, 4)), rows * window, cols * window,
                                                              int(rng.integers(1, 9)))), window)
    # Swin-T's first stage: a 56 x 56 map of 96 channels in 64 windows of 7 x 7.
    yield _case("swin_t_stage_1", True, rng.standard_normal((1, 56, 56, 96)), 7)
    yield _case("swin_t_stage_4_batch_2", True, rng.standard_normal((2, 7, 7, 768)), 7)

    # Probe inputs: only the first window of image 0 differs.
    x = rng.standard_normal((2, 6, 9, 3))
    yield _case("first_window_a", True, x, 3, probe=True)
    changed = x.copy()
    changed[0, :3, :3] = rng.standard_normal((3, 3, 3))
    yield _case("first_window_b", True, changed, 3, probe=True)
