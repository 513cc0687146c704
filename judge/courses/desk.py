"""The grading desk: what a course's staff do with a student's work, and the audit row each leaves.

Reading is a write too: every time an instructor or TA opens another person's code, results or a comparison of
two attempts, the course's audit log says who read what (``record_reading``), so a student can be told who saw
their work.
"""

from __future__ import annotations

from django.db.models import QuerySet

from judge.courses.models import Course
from judge.courses.services import audit
from judge.problems.models import Problem
from judge.submissions.models import Submission

READ_WORK = "read work"


def record_reading(course: Course, by, student, what: str) -> None:
    """One audit row for one page of a student's work that a member of staff opened."""
    audit(course, by, READ_WORK, f"{by.username} read {student.username}'s {what}")


def attempts_of(student, problem: Problem) -> QuerySet[Submission]:
    """A student's attempts on a problem, oldest first: Runs (visible examples) and Submits, without the heavy
    result data."""
    return (Submission.objects.filter(user=student, problem=problem).order_by("created_at", "pk")
            .only("id", "kind", "status", "verdict", "custom_error", "created_at", "problem_id", "user_id"))
