"""A NaN is explained by a cause the code can have: exp() overflow only in code that calls an exponential.

Issue 41: warmup_cosine_schedule with a warm-up factor steps / warmup_steps gets NaN at step 0 of a schedule
without warm-up (0 / 0), and was told "exp() overflows to inf ... subtract the maximum" because its steps
reach the thousands; the schedule has no exponential.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.arrays import to_npy
from engine.checks import CodeFacts, _nan_advice
from engine.grading import grade
from tests.conftest import read_solution
from tests.helpers import package

OVERFLOW = "exp() overflows"
# The warm-up as a factor min(steps / W, 1): with W = 0, step 0 is 0 / 0.
FACTOR_WARMUP = """
import numpy as np


def warmup_cosine_schedule(steps, warmup_steps, total_steps, max_lr, min_lr):
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.minimum(steps / warmup_steps, 1.0)
    progress = np.clip((steps - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = min_lr + (max_lr - min_lr) * 0.5 * (1.0 + np.cos(np.pi * progress))
    return np.where(steps < warmup_steps, max_lr * factor, cosine * np.minimum(factor, 1.0))
"""
LARGE = {"steps": to_npy(np.arange(0.0, 600_000.0, 5000.0))}


def test_code_without_an_exponential_is_not_told_that_exp_overflows():
    assert _nan_advice(LARGE, hidden=True, facts=CodeFacts.of(FACTOR_WARMUP)) == ""


def test_code_with_an_exponential_is_still_told():
    naive = "import numpy as np\n\ndef f(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n"
    assert OVERFLOW in _nan_advice(LARGE, hidden=True, facts=CodeFacts.of(naive))


@pytest.mark.catalogue
@pytest.mark.xdist_group("gate-warmup_cosine_schedule")
def test_a_schedule_divided_by_a_zero_warm_up_is_not_told_to_subtract_the_maximum(gate_store):
    slug = "warmup_cosine_schedule"
    cases = gate_store.gated(slug).outcome.cases
    report = grade(FACTOR_WARMUP, package(slug).spec(), cases, gate_store.sandbox)
    nan = [t for t in report.tests if "NaN" in t.message]
    assert nan, [(t.name, t.status, t.message) for t in report.tests]
    assert not [t.message for t in report.tests if OVERFLOW in t.message]
    assert read_solution(slug) != FACTOR_WARMUP
