"""Deterministic test cases for gae.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Rollouts are like CleanRL's: a fixed number of steps in which episodes end and restart,
values of the size of the returns. The last two cases are probe inputs: the same rollout up to
an episode's end at step 5, anything after it.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, rewards, values, dones, gamma: float, lam: float, probe: bool = False) -> dict:
    args = {"rewards": np.ascontiguousarray(rewards, dtype=np.float64).reshape(-1),
            "values": np.ascontiguousarray(values, dtype=np.float64).reshape(-1),
            "dones": np.ascontiguousarray(dones, dtype=np.float64).reshape(-1),
            "gamma": float(gamma), "lam": float(lam)}
    case = {"name": name, "hidden": hidden, "args": args}
    if probe:
        case["probe"] = True
    return case


def _rollout(rng: np.random.Generator, steps: int, p_done: float = 0.1) -> tuple:
    rewards = rng.standard_normal(steps)
    values = 3.0 * rng.standard_normal(steps + 1)
    dones = (rng.random(steps) < p_done).astype(np.float64)
    return rewards, values, dones


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md, an episode ending at step 1.
    yield _case("example_1", False, [1.0, 0.0, 2.0], [0.5, 1.0, -1.0, 4.0], [0.0, 1.0, 0.0], 0.9, 0.8)

    # Hidden cases (run smallest first).
    yield _case("one_step_bootstrapped", True, [0.7], [1.5, -2.0], [0.0], 0.99, 0.95)
    yield _case("one_step_done", True, [0.7], [1.5, -2.0], [1.0], 0.99, 0.95)
    rewards, values, _ = _rollout(rng, 12)
    # lam = 0: each advantage is its one-step TD error.
    yield _case("lam_0_td_errors", True, rewards, values, np.zeros(12), 0.9, 0.0)
    # lam = 1, no episode end: discounted rewards-to-go plus the discounted bootstrap, minus V.
    yield _case("lam_1_monte_carlo", True, rewards, values, np.zeros(12), 0.9, 1.0)
    yield _case("gamma_0", True, *_rollout(rng, 10, 0.2), 0.0, 0.95)
    # Every step ends an episode (a bandit): the advantage is r - V.
    yield _case("every_step_done", True, *_rollout(rng, 9, 1.1), 0.99, 0.95)
    rewards, values, dones = _rollout(rng, 16, 0.0)
    dones[[0, 7, 15]] = 1.0  # an end at the first step, in the middle and at the last step
    yield _case("ends_at_first_middle_last", True, rewards, values, dones, 0.99, 0.95)
    yield _case("cleanrl_defaults_128_steps", True, *_rollout(rng, 128, 0.05), 0.99, 0.95)
    steps = int(rng.integers(2, 300))
    yield _case("random_any_size", True, *_rollout(rng, steps, float(rng.uniform(0.0, 0.5))),
                float(rng.uniform(0.8, 1.0)), float(rng.uniform(0.0, 1.0)))
    # A long rollout with no end and gamma = lam = 1: advantages sum thousands of terms.
    yield _case("long_undiscounted_4096", True, *_rollout(rng, 4096, 0.0), 1.0, 1.0)

    # Probe inputs: step 5 ends an episode; the rewards and values after it differ.
    rewards, values, dones = _rollout(rng, 12, 0.0)
    dones[5] = 1.0
    yield _case("episode_end_a", True, rewards, values, dones, 0.97, 0.9, probe=True)
    other_rewards, other_values = rewards.copy(), values.copy()
    other_rewards[6:] = rng.standard_normal(6)
    other_values[6:] = 3.0 * rng.standard_normal(7)
    yield _case("episode_end_b", True, other_rewards, other_values, dones, 0.97, 0.9, probe=True)
