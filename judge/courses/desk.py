"""The grading desk: what a course's staff do with a student's work, and the audit row each leaves.

Reading is a write too: every time an instructor or TA opens another person's code, results or a comparison of
two attempts, the course's audit log says who read what (``record_reading``), so a student can be told who saw
their work.
"""

from __future__ import annotations

import math

from django.db import transaction
from django.db.models import QuerySet

from judge.courses.models import Adjustment, AdjustmentKind, Assignment, Course, Membership, Role
from judge.courses.services import CourseError, announce_credit_rules, audit
from judge.problems.models import Problem
from judge.submissions.models import Submission

READ_WORK = "read work"
ADJUSTED = "adjusted points"


def record_reading(course: Course, by, student, what: str) -> None:
    """One audit row for one page of a student's work that a member of staff opened."""
    audit(course, by, READ_WORK, f"{by.username} read {student.username}'s {what}")


def attempts_of(student, problem: Problem) -> QuerySet[Submission]:
    """A student's attempts on a problem, oldest first: Runs (visible examples) and Submits, without the heavy
    result data."""
    return (Submission.objects.filter(user=student, problem=problem).order_by("created_at", "pk")
            .only("id", "kind", "status", "verdict", "custom_error", "created_at", "problem_id", "user_id"))


def adjustments_of(student, problem: Problem) -> dict[int, Adjustment]:
    """The points by hand this student has on this problem, by assignment id."""
    return {a.assignment_id: a for a in Adjustment.objects.filter(user=student, problem=problem)}


@transaction.atomic
def adjust_points(assignment: Assignment, by, student, problem: Problem, kind: str, points: float | None,
                  reason: str) -> Adjustment | None:
    """Give a student points by hand on a problem of an assignment (``kind``: an override of the credit or a
    bonus or deduction), or take them back (``points`` None); audited, and the LMS hears the score may differ."""
    reason = (reason or "").strip()
    errors = []
    if not Membership.objects.filter(course_id=assignment.course_id, user=student, role=Role.STUDENT).exists():
        errors.append(f"{student.username} is not a student of this course.")
    if not assignment.items.filter(problem=problem).exists():
        errors.append(f"{problem.slug} is not a problem of {assignment.title}.")
    if points is not None and (kind not in AdjustmentKind.values or not math.isfinite(points)):
        errors.append("Choose an override or a bonus/deduction, and a number of points.")
    if not reason:
        errors.append("Say why: the reason is kept in the course's audit log.")
    if errors:
        raise CourseError(errors)
    where = f"{student.username} on {problem.slug} in {assignment.title!r}"
    if points is None:
        Adjustment.objects.filter(assignment=assignment, user=student, problem=problem).delete()
        audit(assignment.course, by, ADJUSTED, f"removed the points by hand of {where}: {reason}")
        announce_credit_rules(assignment.pk)
        return None
    adjustment, _ = Adjustment.objects.update_or_create(
        assignment=assignment, user=student, problem=problem,
        defaults={"kind": kind, "points": points, "reason": reason, "by": by})
    audit(assignment.course, by, ADJUSTED, f"{where}: {AdjustmentKind(kind).label} {points:g}: {reason}")
    announce_credit_rules(assignment.pk)
    return adjustment
