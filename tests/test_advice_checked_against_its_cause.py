"""Advice that names a cause is shown only when the code has not already dealt with that cause.

Issue 25: scaled_dot_product_attention normalised over axis 0 after subtracting the row maximum was told, on
its hidden tests, to "subtract the maximum before exponentiating", which it already did.
"""

from __future__ import annotations

import pytest

from engine.checks import CodeFacts
from judge.grading import services as grading
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.conftest import read_solution

SLUG = "scaled_dot_product_attention"
SUMS_OVER_AXIS_0 = """
import numpy as np

def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=0, keepdims=True) @ V
"""


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk: None)


def graded(student, problem, code: str) -> Submission:
    submission = intake.submit_solution(student, problem, code)
    assert grading.grade_submission(submission.pk)
    return Submission.objects.get(pk=submission.pk)


def test_code_that_subtracts_the_row_maximum_is_not_told_to(problems, student, no_enqueue):
    submission = graded(student, problems[SLUG], SUMS_OVER_AXIS_0)
    nan = [t for t in submission.results if "NaN" in t["message"]]
    assert nan, [(t["name"], t["message"]) for t in submission.results]  # it does produce NaN
    assert not [t["message"] for t in submission.results if "subtract the maximum" in t["message"]]
    assert not [t["message"] for t in submission.results if "take the maximum over the last axis" in t["message"]]


def test_code_that_does_not_subtract_it_is_still_told(problems, student, no_enqueue):
    submission = graded(student, problems[SLUG], read_solution(SLUG, "wrong/naive_softmax.py"))
    assert any("subtract the maximum before exponentiating" in t["message"] for t in submission.results)


@pytest.mark.parametrize(
    ("code", "axes"),
    [
        ("y = x - x.max(axis=-1, keepdims=True)", {"-1"}),
        ("m = np.max(x, -1, keepdims=True)\ny = np.exp(x - m)", {"-1"}),
        ("x -= x.max(1)", {"1"}),
        ("y = np.subtract(x, np.amax(x))", {"none"}),
        ("y = x - x.max(axis=k)", {"other"}),
        ("y = np.exp(x) / np.exp(x).sum(axis=-1)", set()),
        ("y = x.max(axis=-1) + 1", set()),
        ("def broken(:", set()),
    ],
)
def test_the_maxima_the_code_subtracts_are_read_from_its_syntax(code, axes):
    assert CodeFacts.of(code).max_axes == axes
