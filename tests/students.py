"""Helpers for page tests: finished submissions without a worker."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from engine.verdicts import Verdict
from judge.standings.services import apply_verdict
from judge.submissions.models import Kind, Status, Submission

START = timezone.make_aware(datetime(2026, 1, 5, 9, 0))  # noqa: DTZ001  (made aware here)


def graded(
    user,
    problem,
    verdict: str = Verdict.ACCEPTED,
    kind: str = Kind.SUBMIT,
    minute: int = 0,
    code: str = "import numpy as np\n",
    results: list | None = None,
) -> Submission:
    """A submission as a worker would have left it, created ``minute`` minutes after START."""
    submission = Submission.objects.create(
        user=user,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=kind,
        code=code,
        status=Status.DONE,
        verdict=verdict,
        results=results or [],
    )
    with transaction.atomic():  # as record_verdict applies a verdict: on PostgreSQL one call of its function
        Submission.objects.filter(pk=submission.pk).update(created_at=START + timedelta(minutes=minute))
        apply_verdict(submission.pk)
    submission.refresh_from_db()
    return submission
