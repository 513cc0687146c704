"""Recording a verdict: only the holder of the current claim can, and the standings follow in the same
transaction."""

from __future__ import annotations

import json
import uuid

from django.db import transaction
from django.utils import timezone

from engine.grading import GradeReport
from judge.submissions import standings
from judge.submissions.models import Status, Submission


# ``record_verdict``'s compare-and-set in SQL, for the statement that also keeps the standings: the same
# changes as its ORM update (written in SQL because compiling that update costs as much as the statement).
RECORD_VERDICT = ("UPDATE submissions_submission SET status = %s, verdict = %s, message = %s, results = %s::jsonb, "
                  "properties = %s::jsonb, grading_ms = %s, sandbox = %s::jsonb, finished_at = %s, claim = NULL "
                  "WHERE id = %s AND claim = %s AND status = %s")


def record_verdict(submission_id: int, token: uuid.UUID, report: GradeReport) -> bool:
    """Store the final verdict, unless someone else holds the claim now; the standings follow in the same
    transaction (recomputed for this student and problem, so a redelivered or rejudged verdict counts once)."""
    tests, now = report.stored_tests(), timezone.now()
    recorded = standings.update_with_standings(RECORD_VERDICT, [  # the common case: one statement
        Status.DONE.value, str(report.verdict), report.message, json.dumps(tests),
        json.dumps(report.properties), report.time_ms, json.dumps(report.sandbox), now, submission_id, token,
        Status.RUNNING.value])
    if recorded is not None:
        return recorded
    with transaction.atomic():
        recorded = Submission.objects.filter(pk=submission_id, claim=token, status=Status.RUNNING).update(
            status=Status.DONE, verdict=report.verdict, message=report.message, results=tests,
            properties=report.properties, grading_ms=report.time_ms, sandbox=report.sandbox, finished_at=now,
            claim=None) == 1
        if recorded:
            standings.apply_verdict(submission_id)
    return recorded
