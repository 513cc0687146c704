"""``fails_with`` accepts the status of any failing hidden test: the order the tests run in is the judge's, which
the author cannot see (issue 25 §3: a wrong solution declaring wrong_value failed the gate because a hidden test
that happened to run first raised)."""

from __future__ import annotations

from engine.checks import TestResult
from engine.gate import _check_wrong
from engine.grading import GradeReport
from engine.package import WrongSpec


def wrong(fails_with: str) -> WrongSpec:
    return WrongSpec(file="wrong/mixed.py", code="", fails_with=fails_with, name="Mixed", explanation="", see="")


def report(*statuses: str) -> GradeReport:
    tests = [TestResult("example", False, "passed")]
    tests += [TestResult(f"hidden_{i}", True, status) for i, status in enumerate(statuses)]
    return GradeReport("runtime_error", tests=tests)


def test_the_status_of_a_later_failing_test_is_accepted():
    known = {t.name: [] for t in report().tests}
    detail = _check_wrong(wrong("wrong_value"), report("runtime_error", "wrong_value", "wrong_value"), {}, known)
    assert detail == (
        "ok  wrong/mixed.py: declares wrong_value, its failing hidden tests give runtime_error on "
        "1 test, wrong_value on 2 tests"
    )


def test_a_status_no_failing_test_gives_still_fails_the_gate():
    detail = _check_wrong(wrong("wrong_shape"), report("runtime_error", "wrong_value", "not_run"), {}, {})
    assert detail.startswith(
        "FAIL wrong/mixed.py: declares wrong_shape, its failing hidden tests give "
        "runtime_error on 1 test, wrong_value on 1 test"
    )
