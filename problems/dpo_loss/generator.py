"""Deterministic test cases for dpo_loss.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Log-probabilities are sums over a response's tokens, so they are negative and tens to
hundreds in size. The last two cases are probe inputs: the same pairs with the chosen
response's log-probability 50 higher under both models, which leaves the loss unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

NAMES = ("policy_chosen_logps", "policy_rejected_logps", "ref_chosen_logps", "ref_rejected_logps")


def _case(name: str, hidden: bool, logps: tuple, beta: float, probe: bool = False) -> dict:
    args = {key: np.ascontiguousarray(value, dtype=np.float64).reshape(-1) for key, value in zip(NAMES, logps)}
    args["beta"] = float(beta)
    case = {"name": name, "hidden": hidden, "args": args}
    if probe:
        case["probe"] = True
    return case


def _pairs(rng: np.random.Generator, batch: int, spread: float = 3.0) -> tuple:
    # A reference, and a policy a few nats away from it on each response.
    ref_chosen = -rng.uniform(20.0, 200.0, batch)
    ref_rejected = -rng.uniform(20.0, 200.0, batch)
    return (ref_chosen + spread * rng.standard_normal(batch), ref_rejected + spread * rng.standard_normal(batch),
            ref_chosen, ref_rejected)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md.
    yield _case("example_1", False, ([-10.0, -30.0], [-12.0, -20.0], [-11.0, -28.0], [-11.0, -21.0]), 0.1)

    # Hidden cases (run smallest first).
    yield _case("one_pair", True, _pairs(rng, 1), 0.1)
    # The policy is the reference: every reward is 0 and the loss is log 2, whatever beta.
    _, _, ref_c, ref_r = _pairs(rng, 5)
    yield _case("policy_equals_reference", True, (ref_c, ref_r, ref_c, ref_r), 0.5)
    yield _case("beta_0_1_trl_default", True, _pairs(rng, 8), 0.1)
    yield _case("beta_small", True, _pairs(rng, 6), 0.01)
    yield _case("beta_large", True, _pairs(rng, 6), 5.0)
    # Margins of beta * 2e4 = +-1e4: exp overflows and the sigmoid underflows unless kept in log space.
    # Every log-probability stays at most 0: the policy raises one response of each pair from -20100.
    ref = np.full(4, -20100.0)
    up_chosen, up_rejected = ref + np.array([2e4, 0.0, 1e4, 0.0]), ref + np.array([0.0, 2e4, 0.0, 1e4])
    yield _case("margins_of_1e4", True, (up_chosen, up_rejected, ref, ref), 0.5)
    # The policy prefers the rejected response more than the reference does: the loss is above log 2.
    pol_c, pol_r, ref_c, ref_r = _pairs(rng, 6)
    yield _case("policy_prefers_rejected", True, (ref_c - 4.0, ref_r + 4.0, ref_c, ref_r), 0.2)
    yield _case("random_small", True, _pairs(rng, int(rng.integers(2, 9))), float(rng.uniform(0.05, 1.0)))
    yield _case("random_any_size", True, _pairs(rng, int(rng.integers(1, 300)), float(rng.uniform(0.5, 20.0))),
                float(rng.uniform(0.01, 2.0)))
    yield _case("batch_of_2048", True, _pairs(rng, 2048), 0.1)

    # Probe inputs: the chosen responses 50 nats likelier under the policy and the reference alike.
    pol_c, pol_r, ref_c, ref_r = _pairs(rng, 6)
    yield _case("shared_shift_a", True, (pol_c, pol_r, ref_c, ref_r), 0.3, probe=True)
    yield _case("shared_shift_b", True, (pol_c + 50.0, pol_r, ref_c + 50.0, ref_r), 0.3, probe=True)
