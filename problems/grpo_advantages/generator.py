"""Deterministic test cases for grpo_advantages.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Rewards are like GRPO's: 0/1 correctness, graded scores, or a reward model's numbers. The
last two cases are probe inputs: the same rewards with one group's raised by 5.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, rewards, group_size: int, probe: bool = False) -> dict:
    args = {"rewards": np.ascontiguousarray(rewards, dtype=np.float64).reshape(-1), "group_size": int(group_size)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": [args["rewards"].shape[0]]}
    if probe:
        case["probe"] = True
    return case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md, two prompts of four completions.
    yield _case("example_1", False, [1.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.5, 0.5], 4)

    # Hidden cases (run smallest first).
    yield _case("one_group_of_two", True, [0.2, 0.9], 2)
    # One completion per prompt: every group is "equal", every advantage 0.
    # Penalties: every reward negative, groups of three.
    yield _case("negative_rewards", True, -rng.uniform(1.0, 10.0, 9), 3)
    yield _case("group_size_1", True, rng.standard_normal(5), 1)
    yield _case("all_groups_equal", True, np.repeat(rng.standard_normal(3), 6), 6)
    # Correct or not, as on math problems: some groups all right, some all wrong, some mixed.
    binary = (rng.random((6, 8)) < np.array([0.0, 1.0, 0.5, 0.1, 0.9, 0.5])[:, None]).astype(np.float64)
    yield _case("binary_correctness", True, binary, 8)
    # One group with a single success: its advantage is large, the others slightly negative.
    yield _case("one_success_in_16", True, np.eye(16)[3], 16)
    # Rewards near 1e6 with a spread of 1: the variance must be taken around the mean (E[r^2] - E[r]^2
    # subtracts two numbers near 1e12 and keeps about 4 digits).
    yield _case("large_offset_small_spread", True, 1e6 + rng.standard_normal(12), 4)
    # Tiny spreads: the 1e-4 keeps the advantages near (r - mean) * 1e4, not (r - mean) / std.
    yield _case("spread_near_epsilon", True, 1e-5 * rng.standard_normal(10), 5)
    group_size = int(rng.integers(2, 17))
    yield _case("random_any_size", True, 3.0 * rng.standard_normal(group_size * int(rng.integers(1, 20))), group_size)
    # DeepSeekMath's setting: 64 completions per prompt, here 16 prompts.
    yield _case("groups_of_64", True, rng.uniform(0.0, 1.0, 16 * 64), 64)

    # Probe inputs: one group's rewards all 5 higher.
    rewards = rng.standard_normal(12)
    yield _case("shifted_group_a", True, rewards, 4, probe=True)
    shifted = rewards.copy()
    shifted[4:8] += 5.0
    yield _case("shifted_group_b", True, shifted, 4, probe=True)
