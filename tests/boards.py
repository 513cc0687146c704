"""Helpers for standings tests: problems without packages, and verdicts recorded as a worker records them."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.utils import timezone

from engine.grading import GradeReport
from engine.verdicts import Verdict
from judge.grading.recording import record_verdict
from judge.problems.models import Problem, TestSet
from judge.submissions.models import Kind, Status, Submission


def quick_problem(slug: str, tags: tuple[str, ...] = (), order: int = 0, published: bool = True) -> Problem:
    """A published problem row with a test set and no package: enough for standings, instant to make."""
    problem = Problem.objects.create(
        slug=slug,
        title=slug.replace("_", " ").capitalize(),
        difficulty="easy",
        tags=list(tags),
        statement_md="-",
        starter_code="",
        solution_code="",
        package_hash="-",
        path_order=order,
        published=published,
    )
    test_set = TestSet.objects.create(problem=problem, version="v1")
    Problem.objects.filter(pk=problem.pk).update(current_test_set=test_set)
    problem.refresh_from_db()
    return problem


def recorded(
    user, problem, verdict: str = Verdict.ACCEPTED, at: datetime | None = None, kind: str = Kind.SUBMIT
) -> Submission:
    """A submission made at ``at`` (now by default) whose verdict went through ``record_verdict``."""
    token = uuid.uuid4()
    submission = Submission.objects.create(
        user=user,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=kind,
        code="import numpy as np\n",
        status=Status.RUNNING,
        claim=token,
    )
    if at is not None:
        Submission.objects.filter(pk=submission.pk).update(created_at=at)
    assert record_verdict(submission.pk, token, GradeReport(verdict))
    return submission


def regraded(submission: Submission, verdict: str) -> bool:
    """A rejudge: the submission back in the queue, claimed again, and its new verdict recorded."""
    token = uuid.uuid4()
    Submission.objects.filter(pk=submission.pk).update(status=Status.RUNNING, verdict="", claim=token)
    return record_verdict(submission.pk, token, GradeReport(verdict))


def days_ago(days: float) -> datetime:
    return timezone.now() - timedelta(days=days)
