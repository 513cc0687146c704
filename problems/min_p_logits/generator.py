"""Deterministic test cases for min_p_logits.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``min_p`` is a plain Python float (kind "float"). Whether a token survives compares the
ratio p_j / p_max = exp(logit_j - logit_max) with min_p, and correct ways of computing it differ by
a few ulps, so every case keeps log(min_p) at least 1e-9 from every logit gap of its rows
(``_clear_of_ratios`` checks it), except a gap of exactly 0 (a tie with the top token), which every
way computes exactly. The last two cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

MARGIN = 1e-9


def _clear_of_ratios(logits: np.ndarray, min_p: float) -> float:
    if min_p > 0:
        with np.errstate(invalid="ignore"):
            gaps = logits - logits.max(axis=-1, keepdims=True)
        gaps = gaps[np.isfinite(gaps) & (gaps != 0)]
        if gaps.size and np.min(np.abs(gaps - np.log(min_p))) <= MARGIN:
            raise ValueError(f"min_p = {min_p} lies within {MARGIN} of a probability ratio")
    return min_p


def _case(name: str, hidden: bool, logits, min_p: float, probe: bool = False) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(logits.shape),
            "args": {"logits": logits, "min_p": _clear_of_ratios(logits, float(min_p))}}
    return case | {"probe": True} if probe else case


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    x = np.array([[2.0, 0.0, 1.0, -1.0], [1.0, 1.0, 1.0, 0.0]])
    yield _case("example_min_p_03", False, x, 0.3)
    yield _case("example_min_p_04", False, x, 0.4)

    # Hidden cases (the judge runs them smallest first).
    yield _case("min_p_zero_keeps_all", True, rng.standard_normal((3, 9)), 0.0)
    # min_p = 1 keeps exactly the tokens tied with the top one.
    yield _case("min_p_one_keeps_ties", True, rng.integers(-2, 3, size=(5, 8)).astype(float), 1.0)
    # A flat row: the top probability (about 1/300) is far below min_p itself.
    yield _case("flat_rows", True, 0.2 * rng.standard_normal((3, 300)), 0.1)
    peaked = rng.standard_normal((3, 10))
    peaked[:, 4] += 7.0
    yield _case("dominant_token", True, peaked, 0.05)
    yield _case("negative_logits", True, -5.0 + rng.standard_normal((4, 12)), 0.2)
    # A gap 1e-6 on either side of log(min_p): the second token is kept, then dropped.
    gap = np.log(0.25)
    yield _case("just_inside_the_cut", True, [[1.0, 1.0 + gap + 1e-6, -3.0, 0.0 + gap - 0.5]], 0.25)
    yield _case("just_outside_the_cut", True, [[1.0, 1.0 + gap - 1e-6, -3.0, 0.0 + gap - 0.5]], 0.25)
    yield _case("large_logits", True, 3000.0 + 2.0 * rng.standard_normal((3, 15)), 0.1)
    masked = rng.standard_normal((4, 12))
    masked[:, 8:] = -np.inf
    yield _case("already_masked", True, masked, 0.3)
    yield _case("vector", True, rng.standard_normal(int(rng.integers(10, 40))), 0.2)
    yield _case("three_dims", True, 2.0 * rng.standard_normal((2, 3, 11)), 0.15)
    # GPT-2's 50,257-token vocabulary with min_p = 0.05, a common setting.
    yield _case("gpt2_vocab_min_p_005", True, 3.0 * rng.standard_normal((4, 50257)), 0.05)
    yield _case("random_any", True, rng.standard_normal((int(rng.integers(1, 6)), int(rng.integers(1, 200)))),
                float(rng.uniform(0.02, 0.9)))

    # Probe inputs (never graded): changing the second row leaves the first row's result unchanged.
    x = 0.5 * rng.standard_normal((2, 40))
    other = x.copy()
    other[1, 7] += 12.0  # the second row becomes nearly certain: its top probability is close to 1
    yield _case("probe_rows_base", True, x, 0.5, probe=True)
    yield _case("probe_other_row_changed", True, other, 0.5, probe=True)
