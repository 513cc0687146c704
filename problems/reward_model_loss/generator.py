"""Deterministic test cases for reward_model_loss.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. The last two cases are probe inputs: the same pairs with every reward raised by 1000,
which a Bradley-Terry loss cannot tell apart.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, chosen, rejected, probe: bool = False) -> dict:
    args = {"chosen_rewards": np.ascontiguousarray(chosen, dtype=np.float64).reshape(-1),
            "rejected_rewards": np.ascontiguousarray(rejected, dtype=np.float64).reshape(-1)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": []}
    if probe:
        case["probe"] = True
    return case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md.
    yield _case("example_1", False, [2.0, 0.5, -1.0], [1.0, 0.5, 1.0])

    # Hidden cases (run smallest first).
    yield _case("one_pair", True, [0.3], [-1.2])
    yield _case("equal_rewards_log_2", True, np.full(4, 3.7), np.full(4, 3.7))
    # Right by 40: the loss is about 4e-18, which 1 + e^-40 rounds away; absolute tolerance covers it.
    yield _case("right_by_40", True, rng.standard_normal(5) + 40.0, np.zeros(5))
    # Wrong by 40: the loss is about 40 per pair.
    yield _case("wrong_by_40", True, np.zeros(5), rng.standard_normal(5) + 40.0)
    # Differences of +-1e4: exp(1e4) overflows, and sigmoid(-1e4) underflows to 0.
    yield _case("margins_of_1e4", True, [1e4, -1e4, 5e3, -5e3], [0.0, 0.0, -5e3, 5e3])
    yield _case("wrong_by_1e4_everywhere", True, np.full(3, -5e3), np.full(3, 5e3))
    yield _case("rewards_near_1e4_small_margins", True, 1e4 + rng.standard_normal(6), 1e4 + rng.standard_normal(6))
    batch = int(rng.integers(2, 9))
    yield _case("random_small", True, rng.standard_normal(batch), rng.standard_normal(batch))
    batch = int(rng.integers(1, 200))
    scale = float(rng.uniform(0.1, 50.0))
    yield _case("random_any_size", True, scale * rng.standard_normal(batch), scale * rng.standard_normal(batch))
    yield _case("batch_of_4096", True, 3.0 * rng.standard_normal(4096), 3.0 * rng.standard_normal(4096))

    # Probe inputs: the same pairs, every reward 1000 higher.
    chosen, rejected = 2.0 * rng.standard_normal(8), 2.0 * rng.standard_normal(8)
    yield _case("shift_a", True, chosen, rejected, probe=True)
    yield _case("shift_b", True, chosen + 1000.0, rejected + 1000.0, probe=True)
