"""Deterministic test cases for ppo_clip_loss.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Log-probabilities are those of actions (negative, a few nats), and the new policy is a
small step from the old one, as in a PPO epoch, except where a test says otherwise. The last two
cases are probe inputs: positive advantages whose ratios are all beyond 1 + eps, by different
amounts.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logp_new, logp_old, advantages, clip_eps: float, probe: bool = False) -> dict:
    args = {"logp_new": np.ascontiguousarray(logp_new, dtype=np.float64).reshape(-1),
            "logp_old": np.ascontiguousarray(logp_old, dtype=np.float64).reshape(-1),
            "advantages": np.ascontiguousarray(advantages, dtype=np.float64).reshape(-1),
            "clip_eps": float(clip_eps)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": []}
    if probe:
        case["probe"] = True
    return case


def _batch(rng: np.random.Generator, size: int, step: float = 0.3) -> tuple:
    logp_old = -rng.uniform(0.1, 5.0, size)
    return logp_old + step * rng.standard_normal(size), logp_old, rng.standard_normal(size)


def _with_ratios(rng: np.random.Generator, ratios: np.ndarray, advantages: np.ndarray) -> tuple:
    logp_old = -rng.uniform(0.5, 5.0, ratios.shape[0])
    return logp_old + np.log(ratios), logp_old, advantages


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md, one sample in each regime.
    old = np.log(np.array([0.2, 0.4, 0.2, 0.4, 0.5]))
    new = np.log(np.array([0.3, 0.2, 0.3, 0.2, 0.55]))  # ratios 1.5, 0.5, 1.5, 0.5, 1.1
    yield _case("example_1", False, new, old, [2.0, 2.0, -2.0, -2.0, 1.0], 0.2)

    # Hidden cases (run smallest first).
    yield _case("one_sample", True, *_batch(rng, 1), 0.2)
    # The first epoch: the new policy is the old one, every ratio is 1 and the loss is -mean(A).
    logp = -rng.uniform(0.1, 5.0, 7)
    yield _case("ratio_one_first_epoch", True, logp, logp, rng.standard_normal(7), 0.2)
    yield _case("zero_advantages", True, *_batch(rng, 6)[:2], np.zeros(6), 0.2)
    # Positive advantages, ratios above 1 + eps: clipped, the gradient would be 0.
    yield _case("positive_advantages_above_range", True,
                *_with_ratios(rng, rng.uniform(1.3, 3.0, 8), rng.uniform(0.1, 2.0, 8)), 0.2)
    # Negative advantages, ratios above 1 + eps: not clipped (the min keeps the worse, unclipped one).
    yield _case("negative_advantages_above_range", True,
                *_with_ratios(rng, rng.uniform(1.3, 3.0, 8), -rng.uniform(0.1, 2.0, 8)), 0.2)
    # Negative advantages, ratios below 1 - eps: clipped.
    yield _case("negative_advantages_below_range", True,
                *_with_ratios(rng, rng.uniform(0.1, 0.7, 8), -rng.uniform(0.1, 2.0, 8)), 0.2)
    # eps = 0: every ratio is clipped to 1 from the side that helps, so the loss is -mean(A) + a penalty.
    yield _case("clip_eps_0", True, *_batch(rng, 9), 0.0)
    yield _case("clip_eps_0_1", True, *_batch(rng, 16), 0.1)
    # Ratios from e^-20 to e^20: far outside the range, with advantages of both signs.
    yield _case("ratios_e_to_the_20", True, *_with_ratios(rng, np.exp(rng.uniform(-20.0, 20.0, 12)),
                                                          rng.standard_normal(12)), 0.2)
    yield _case("random_any_size", True, *_batch(rng, int(rng.integers(1, 500)), float(rng.uniform(0.01, 1.0))),
                float(rng.uniform(0.05, 0.5)))
    # CleanRL's Atari minibatch: 256 samples; and a large batch of 8192.
    yield _case("minibatch_256", True, *_batch(rng, 256), 0.1)
    yield _case("batch_8192", True, *_batch(rng, 8192), 0.2)

    # Probe inputs: the same positive advantages, every ratio above 1 + eps, by different amounts.
    advantages = rng.uniform(0.1, 2.0, 10)
    yield _case("clipped_a", True, *_with_ratios(rng, rng.uniform(1.25, 1.5, 10), advantages), 0.2, probe=True)
    yield _case("clipped_b", True, *_with_ratios(rng, rng.uniform(2.0, 6.0, 10), advantages), 0.2, probe=True)
