"""A misconception is named only on code that behaves like the known-wrong solution on every test it ran.

Issue 41: top_p_logits sorted in ascending order was told "Softmax without subtracting the row maximum"
although it subtracts it: on the one test the naive softmax fails (logits in the thousands) the two give the
same output, and the eleven tests it failed where the naive softmax passed did not count against the name.
A known-wrong solution's passes are now kept with its results, and failing where it passed contradicts it.
The same keeps a mistake that costs time or memory nameable by its status alone: decode_with_kv_cache's
"whole prefix recomputed" runs out of time on the long test and passes every other one.
"""

from __future__ import annotations

import pytest

from engine.checks import KnownWrong, TestResult
from engine.grading import Checked, name_consistent_misconceptions
from engine.spec import Case
from engine.verdicts import TestStatus
from tests.conftest import read_solution

NAIVE = "Softmax without subtracting the row maximum"
# Subtracts the row maximum (the last entry after an ascending sort), but sums the mass from the least likely
# token up; on logits in the thousands it keeps the whole row, as the naive softmax's NaNs do.
ASCENDING = """
import numpy as np


def top_p_logits(logits, p):
    ordered = np.sort(logits, axis=-1)
    shifted = np.exp(ordered - ordered[..., -1:])
    probs = shifted / shifted.sum(axis=-1, keepdims=True)
    above = np.cumsum(probs, axis=-1) - probs
    kept = np.sum(above < p, axis=-1, keepdims=True)
    threshold = np.take_along_axis(ordered, ordered.shape[-1] - kept, axis=-1)
    return np.where(logits >= threshold, logits, -np.inf)
"""


def checked(name: str, status: str, known: list[KnownWrong], matches: list[KnownWrong] = ()) -> Checked:
    return Checked(TestResult(name, True, status), Case(name, True, {}, b"", tuple(known)), list(matches))


def known(status: str) -> KnownWrong:
    return KnownWrong(NAIVE, "", "", status)


def test_failing_where_the_known_wrong_solution_passed_contradicts_its_name():
    overflow = known(TestStatus.WRONG_VALUE)
    results = name_consistent_misconceptions(
        [
            checked("large_logits", TestStatus.WRONG_VALUE, [overflow], [overflow]),
            checked("tiny_p", TestStatus.WRONG_VALUE, [known(TestStatus.PASSED)]),
        ]
    )
    assert [r.misconception for r in results] == [{}, {}]


def test_passing_where_the_known_wrong_solution_passed_keeps_its_name():
    overflow = known(TestStatus.WRONG_VALUE)
    results = name_consistent_misconceptions(
        [
            checked("large_logits", TestStatus.WRONG_VALUE, [overflow], [overflow]),
            checked("tiny_p", TestStatus.PASSED, [known(TestStatus.PASSED)]),
        ]
    )
    assert results[0].misconception["name"] == NAIVE


@pytest.mark.catalogue
@pytest.mark.xdist_group("gate-top_p_logits")
def test_an_ascending_sort_is_not_told_it_forgot_to_subtract_the_maximum(gate_store):
    report = gate_store.gated("top_p_logits").grade(ASCENDING)
    failed = [t for t in report.tests if t.status != "passed"]
    assert len(failed) > 5 and "large_logits" in {t.name for t in failed}
    assert NAIVE not in {t.misconception.get("name") for t in failed}


@pytest.mark.catalogue
@pytest.mark.xdist_group("gate-top_p_logits")
def test_the_naive_softmax_itself_is_still_named(gate_store):
    report = gate_store.gated("top_p_logits").report(read_solution("top_p_logits", "wrong/naive_softmax.py"))
    assert {t.misconception.get("name") for t in report.tests if t.status != "passed"} == {NAIVE}


@pytest.mark.catalogue
@pytest.mark.xdist_group("gate-decode_with_kv_cache")
def test_recomputing_the_prefix_is_named_where_it_runs_out_of_time(gate_store):
    code = read_solution("decode_with_kv_cache", "wrong/recomputes_the_prefix.py")
    report = gate_store.gated("decode_with_kv_cache").report(code)
    timed_out = [t for t in report.tests if t.status == "time_limit_exceeded"]
    assert [t.name for t in timed_out] == ["long_generation_600"]
    assert timed_out[0].misconception["name"] == "The whole prefix recomputed at every step"


@pytest.mark.catalogue
@pytest.mark.xdist_group("gate-int8_linear")
def test_a_whole_dequantised_weight_is_named_where_it_runs_out_of_memory(gate_store):
    report = gate_store.gated("int8_linear").report(read_solution("int8_linear", "wrong/whole_weight_dequantised.py"))
    over = [t for t in report.tests if t.status == "memory_limit_exceeded"]
    assert "large_weight_memory" in {t.name for t in over}
    assert {t.misconception.get("name") for t in over} == {"The whole weight dequantised at once"}
