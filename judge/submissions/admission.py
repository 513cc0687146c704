"""Whether a student may make one more Submit now: rules that apps above this one add, asked where the Submit
is stored.

The submissions app knows nothing of courses (docs/contributors/architecture.md#the-layers), so an app above it
that limits Submits (``judge.courses.attempts``: an assignment's attempt limit) adds a rule here with
``add_rule`` when Django starts (its ``AppConfig.ready``). ``submit_solution`` calls ``admit`` inside the
transaction that stores the Submit, after taking a lock on the student (``lock_student``): two Submits of one
student sent at once are counted one after the other, so a last allowed Submit is allowed once, not twice.
A Run is never asked about (it only tries the visible examples), nor is a review's Submit, which counts for
nothing but the review.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import connection

from judge.lib.validation import SubmissionRejected
from judge.problems.models import Problem

Rule = Callable[[object, Problem, datetime], str]  # (user, problem, now) -> why not, or "" to allow
_rules: list[Rule] = []
ADMISSION_LOCK_CLASS = 10_433  # the first key of the advisory locks taken here (claims use 10_431)


class SubmitRefused(SubmissionRejected):
    """A rule refused the Submit (the limit was reached); the message says which and that Run is still free."""


def add_rule(rule: Rule) -> None:
    if rule not in _rules:
        _rules.append(rule)


def lock_student(user_id: int) -> None:
    """Until the transaction ends, no other Submit of this student is admitted. On SQLite the transaction holds
    the database's write lock from its start (``transaction_mode: IMMEDIATE``), which serialises them already."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADMISSION_LOCK_CLASS, user_id])


def admit(user, problem: Problem, now: datetime) -> None:
    """Raise ``SubmitRefused`` if a rule refuses this Submit; call inside the storing transaction."""
    if not _rules:
        return
    lock_student(user.pk)
    for rule in _rules:
        refusal = rule(user, problem, now)
        if refusal:
            raise SubmitRefused(refusal)
