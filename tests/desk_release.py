"""Helpers for the release tests: a Submit graded as a worker records it (a visible example passed, a hidden test
failed with a named mistake), and a clock the tests move."""

from __future__ import annotations

import uuid
from datetime import datetime

import pytest
from django.utils import timezone

from engine.checks import TestResult
from engine.grading import GradeReport
from engine.verdicts import Verdict
from judge.grading.recording import record_verdict
from judge.submissions.models import Kind, Status, Submission

HIDDEN_TEST = "hidden_long_sequence"
MISTAKE = "Softmax over the batch axis"
MESSAGE = "Wrong answer on a hidden test: the values differ."


def report(verdict: str) -> GradeReport:
    """What the grader stores: the visible example passed; a hidden test failed (accepted: passed) with a name."""
    failed = verdict != Verdict.ACCEPTED
    hidden = TestResult(
        HIDDEN_TEST,
        True,
        "wrong_value" if failed else "passed",
        checks={"values": "failed" if failed else "passed"},
        misconception={"name": MISTAKE, "explanation": "-", "see": ""} if failed else {},
    )
    return GradeReport(
        verdict,
        MESSAGE if failed else "",
        tests=[TestResult("example_1", False, "passed", checks={"values": "passed"}), hidden],
    )


def graded(user, problem, verdict: str = Verdict.WRONG_ANSWER, at: datetime | None = None) -> Submission:
    token = uuid.uuid4()
    submission = Submission.objects.create(
        user=user,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=Kind.SUBMIT,
        code="import numpy as np\n",
        status=Status.RUNNING,
        claim=token,
    )
    if at is not None:
        Submission.objects.filter(pk=submission.pk).update(created_at=at)
    assert record_verdict(submission.pk, token, report(verdict))
    submission.refresh_from_db()
    return submission


class Clock:
    """``django.utils.timezone.now`` pinned to a moment the test moves (the live server runs in this process)."""

    def __init__(self, monkeypatch, at: datetime):
        self.at = at
        monkeypatch.setattr(timezone, "now", lambda: self.at)

    def move_to(self, at: datetime) -> None:
        self.at = at


@pytest.fixture
def clock(monkeypatch):
    return lambda at: Clock(monkeypatch, at)
