"""Deterministic test cases for warmup_cosine_schedule.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``steps`` holds float64 whole numbers >= 0; the other four
parameters are plain Python values (kinds "int" and "float"). The last case is a
probe input: the schedule's landmarks, whose values are fixed by the statement.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, steps, warmup: int, total: int, max_lr: float, min_lr: float,
          probe: bool = False) -> dict:
    steps = np.ascontiguousarray(steps, dtype=np.float64)
    args = {"steps": steps, "warmup_steps": int(warmup), "total_steps": int(total),
            "max_lr": float(max_lr), "min_lr": float(min_lr)}
    case = {"name": name, "hidden": hidden, "shape": list(steps.shape), "args": args}
    return case | {"probe": True} if probe else case


def _whole(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64).astype(np.float64)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_every_step", False, np.arange(9), 2, 6, 1.0, 0.1)
    yield _case("example_matrix", False, [[0, 50, 100], [550, 1000, 2000]], 100, 1000, 3e-4, 3e-5)

    # Hidden cases (run smallest first).
    warmup = int(rng.integers(5, 50))
    yield _case("single_step", True, [int(rng.integers(1, warmup))], warmup, 200, 1e-3, 1e-4)
    # Every boundary and its neighbours: 0, W - 1, W, W + 1, T - 1, T, T + 1.
    yield _case("boundaries", True, [0, 1, 9, 10, 11, 49, 50, 51], 10, 50, 2e-3, 2e-4)
    # No warm-up: the schedule starts at max_lr at step 0.
    yield _case("no_warmup", True, np.arange(0, 41, 4), 0, 40, 5e-4, 5e-5)
    # The shortest decay: max_lr at step W, min_lr from step W + 1 on.
    yield _case("one_step_decay", True, [0, 3, 6, 7, 8, 9], 7, 8, 1.0, 0.25)
    # min_lr = max_lr: a warm-up, then a constant.
    yield _case("min_equals_max", True, np.arange(0, 30, 3), 12, 24, 3e-4, 3e-4)
    # min_lr = 0: the decay ends at exactly zero.
    yield _case("decays_to_zero", True, np.arange(0, 130, 5), 20, 100, 1e-2, 0.0)
    # Steps in any order, repeated, and far past the end.
    total = int(rng.integers(200, 400))
    steps = _whole(rng.integers(0, 3 * total, size=(4, 25)))
    steps[0, :3] = [0, total, 100 * total]
    yield _case("unsorted_matrix", True, steps, int(rng.integers(10, 60)), total, 1e-3, 1e-5)
    # A schedule as a multiplier of the base rate (max_lr = 1), in three dimensions.
    total = int(rng.integers(50, 90))
    yield _case("multiplier_three_dims", True, _whole(rng.integers(0, total + 20, size=(2, 3, 7))),
                int(rng.integers(1, 20)), total, 1.0, 0.1)
    # nanoGPT's GPT-2 settings under this problem's rule (nanoGPT warms up as (s + 1) / (W + 1)): 2000 warm-up
    # steps, decay to 6e-5 over 600,000, every 50th step and beyond.
    yield _case("gpt2_long_run", True, np.arange(0, 650_001, 50), 2000, 600_000, 6e-4, 6e-5)
    # Every step of a short fine-tuning run, then past its end.
    yield _case("every_step_short_run", True, np.arange(0, 1200), 100, 1000, 3e-5, 0.0)

    warmup = int(rng.integers(0, 100))
    total = warmup + int(rng.integers(1, 500))
    max_lr = float(10.0 ** rng.uniform(-5, 0))
    size = int(rng.integers(1, 200))
    yield _case("random_any", True, _whole(rng.integers(0, 2 * total, size=size)), warmup, total, max_lr,
                max_lr * float(rng.uniform(0.0, 1.0)))

    # Probe input: step 0, step W, step T, and three steps after T (W = 100, T = 1000).
    yield _case("probe_landmarks", True, [0, 100, 1000, 1001, 1500, 5000], 100, 1000, 1e-3, 1e-5, probe=True)
