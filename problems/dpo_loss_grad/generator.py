"""Deterministic test cases for dpo_loss_grad.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Cases marked "fd" are also checked against finite_difference.py, central differences of
the mean loss (small batches, moderate margins, where the estimate is good to about 1e-9).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

NAMES = ("policy_chosen_logps", "policy_rejected_logps", "ref_chosen_logps", "ref_rejected_logps")


def _case(name: str, hidden: bool, logps: tuple, beta: float, fd: bool = False) -> dict:
    args = {key: np.ascontiguousarray(value, dtype=np.float64).reshape(-1) for key, value in zip(NAMES, logps)}
    args["beta"] = float(beta)
    case = {"name": name, "hidden": hidden, "args": args}
    return case | {"fd": True} if fd else case


def _pairs(rng: np.random.Generator, batch: int, spread: float = 3.0) -> tuple:
    ref_chosen = -rng.uniform(20.0, 200.0, batch)
    ref_rejected = -rng.uniform(20.0, 200.0, batch)
    return (ref_chosen + spread * rng.standard_normal(batch), ref_rejected + spread * rng.standard_normal(batch),
            ref_chosen, ref_rejected)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: dpo_loss's worked example.
    yield _case("example_1", False, ([-10.0, -30.0], [-12.0, -20.0], [-11.0, -28.0], [-11.0, -21.0]), 0.1, fd=True)

    # Hidden cases (run smallest first).
    yield _case("one_pair", True, _pairs(rng, 1), 0.1, fd=True)
    # The policy is the reference: every margin is 0, sigmoid(0) = 1/2, grad = -+beta / (2B).
    _, _, ref_c, ref_r = _pairs(rng, 5)
    yield _case("policy_equals_reference", True, (ref_c, ref_r, ref_c, ref_r), 0.5, fd=True)
    yield _case("beta_0_1_trl_default", True, _pairs(rng, 8), 0.1, fd=True)
    yield _case("beta_small", True, _pairs(rng, 6), 0.01, fd=True)
    yield _case("beta_large", True, _pairs(rng, 6, 1.0), 5.0, fd=True)
    # Margins of +-1e4: won pairs have a gradient of (almost exactly) 0, lost pairs of -+beta / B.
    ref = np.full(4, -20100.0)
    up_chosen, up_rejected = ref + np.array([2e4, 0.0, 1e4, 0.0]), ref + np.array([0.0, 2e4, 0.0, 1e4])
    yield _case("margins_of_1e4", True, (up_chosen, up_rejected, ref, ref), 0.5)
    _, _, ref_c, ref_r = _pairs(rng, 6)
    yield _case("policy_prefers_rejected", True, (ref_c - 4.0, ref_r + 4.0, ref_c, ref_r), 0.2, fd=True)
    yield _case("random_small", True, _pairs(rng, int(rng.integers(2, 9))), float(rng.uniform(0.05, 1.0)), fd=True)
    yield _case("random_any_size", True, _pairs(rng, int(rng.integers(1, 300)), float(rng.uniform(0.5, 20.0))),
                float(rng.uniform(0.01, 2.0)))
    yield _case("batch_of_2048", True, _pairs(rng, 2048), 0.1)
