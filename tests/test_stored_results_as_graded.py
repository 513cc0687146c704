"""What a graded Submit stores for each test is everything its check found, field by field, as the result
page has always read it: the faster copy (``TestResult.as_dict``) leaves nothing out, and what is stored is
the store's own, so nothing done to it afterwards changes the report."""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.grading import grade
from engine.spec import Case
from tests.helpers import npy, spec

X = np.arange(6, dtype=np.float64).reshape(2, 3) * 1000.0
WRONG = "import numpy as np\ndef f(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n"


def softmax(x: np.ndarray) -> np.ndarray:
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def cases() -> list[Case]:
    small = np.arange(6, dtype=np.float64).reshape(2, 3)
    return [
        Case("overflows", False, {"x": npy(X)}, npy(softmax(X))),
        Case("passes", False, {"x": npy(small)}, npy(softmax(small))),
        Case("hidden", True, {"x": npy(X + 1.0)}, npy(softmax(X + 1.0))),
    ]


def test_a_failing_submit_stores_every_field_of_every_test(process_sandbox):
    report = grade(WRONG, spec(), cases(), process_sandbox)
    assert [t.status for t in report.tests] == ["wrong_value", "passed", "wrong_value"]
    stored = report.stored_tests()
    expected = [dataclasses.asdict(t) | ({"time_ms": 0.0} if t.hidden else {}) for t in report.tests]
    assert stored == expected
    shown = stored[0]
    assert "exp() overflows" in shown["message"] and shown["detail"]["pattern"]["label"] == "NaN"
    assert "reach" not in stored[2]["message"] and stored[2]["detail"] == {}  # the hidden test says no magnitude


def test_what_is_stored_is_a_copy_of_the_report(process_sandbox):
    report = grade(WRONG, spec(), cases(), process_sandbox)
    stored = report.stored_tests()
    stored[0]["detail"]["pattern"]["count"] = -1
    stored[0]["checks"]["values"] = "changed"
    assert report.tests[0].detail["pattern"]["count"] != -1
    assert report.tests[0].checks["values"] == "failed"
