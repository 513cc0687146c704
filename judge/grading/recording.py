"""Recording a verdict: only the holder of the current claim can, and the standings follow in the same
transaction, usually in the same statement.

The standings are kept by ``judge.standings``, a floor below this app: ``in_statement`` gives the database
function that does the common case inside the statement that records the verdict (PostgreSQL: one round trip
per verdict), and ``apply_verdict`` does the rest, or all of it elsewhere, in the recording transaction.
"""

from __future__ import annotations

import contextlib
import json
import uuid

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from engine.grading import GradeReport
from judge.standings.services import apply_verdict, in_statement
from judge.submissions.models import Status, Submission

LONG_WAY = "JR001"  # the SQLSTATE the standings function raises when a verdict needs ``apply_verdict``


# ``record_verdict``'s compare-and-set in SQL, for the statement that also keeps the standings: the same
# changes as its ORM update (written in SQL because compiling that update costs as much as the statement).
RECORD_VERDICT = (
    "UPDATE submissions_submission SET status = %s, verdict = %s, message = %s, results = %s::jsonb, "
    "properties = %s::jsonb, grading_ms = %s, sandbox = %s::jsonb, finished_at = %s, claim = NULL "
    "WHERE id = %s AND claim = %s AND status = %s"
)


def record_verdict(submission_id: int, token: uuid.UUID, report: GradeReport) -> bool:
    """Store the final verdict, unless someone else holds the claim now; the standings follow in the same
    transaction (recomputed for this student and problem, so a redelivered or rejudged verdict counts once)."""
    tests, now = report.stored_tests(), timezone.now()
    recorded = update_with_standings(
        RECORD_VERDICT,
        [  # the common case: one statement
            Status.DONE.value,
            str(report.verdict),
            report.message,
            json.dumps(tests),
            json.dumps(report.properties),
            report.time_ms,
            json.dumps(report.sandbox),
            now,
            submission_id,
            token,
            Status.RUNNING.value,
        ],
    )
    if recorded is not None:
        return recorded
    with transaction.atomic():
        recorded = (
            Submission.objects.filter(pk=submission_id, claim=token, status=Status.RUNNING).update(
                status=Status.DONE,
                verdict=report.verdict,
                message=report.message,
                results=tests,
                properties=report.properties,
                grading_ms=report.time_ms,
                sandbox=report.sandbox,
                finished_at=now,
                claim=None,
            )
            == 1
        )
        if recorded:
            apply_verdict(submission_id)
    return recorded


def update_with_standings(update: str, params: list) -> bool | None:
    """``update`` (an UPDATE of one submission at most) and the standings, in one statement.

    True if the row was updated, False if not (the claim was gone); None when there is no such statement
    here or the verdict needs ``apply_verdict``: nothing was written then.
    """
    found = in_statement("recorded.id")
    if found is None:
        return None
    function, arguments = found
    statement = (
        f"WITH recorded AS ({update} RETURNING id) "  # noqa: S608  (our own UPDATE and function; values are parameters)
        f"SELECT recorded.id FROM recorded LEFT JOIN LATERAL {function} AS standings ON true"
    )
    try:
        # Inside a transaction (a test's, or a caller's), a savepoint keeps a refusal from aborting it.
        with (
            transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement, [*params, *arguments])
            return cursor.fetchone() is not None
    except DatabaseError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == LONG_WAY:
            return None
        raise
