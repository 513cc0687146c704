"""Attempt limits: an assignment may allow each student a number of Submits per problem (``max_submits``).

What counts: the student's Submits on the problem inside their own window (their dates after overrides and
extensions, or their timed window), the ones the credit is chosen from; a Submit the judge failed to grade
(``internal_error``) is not the student's and does not count. Run is never limited, and outside the window a
Submit is practice that cannot change the grade, so it is not limited either. A problem held by several of a
student's assignments with limits is refused once any of them is used up.

The check runs where every Submit is stored (``judge.submissions.admission``, which this module's ``refusal``
is added to when the app starts), under a lock on the student, so two last Submits sent at once are not both
admitted. Pages read ``limits_on`` to say how many are left.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.verdicts import Verdict
from judge.courses.deadlines import Window, credit_at
from judge.courses.grades import window_for
from judge.courses.models import Assignment, Role
from judge.problems.models import Problem
from judge.submissions.models import Kind, Submission


@dataclass(frozen=True)
class AttemptLimit:
    assignment: Assignment
    allowed: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.allowed - self.used)

    @property
    def text(self) -> str:
        return f"{self.left} of {self.allowed} Submit{'s' if self.allowed != 1 else ''} left"


def submits_used(user_id: int, problem_id: int, window: Window) -> int:
    """The student's Submits on the problem that count against a limit: inside their window, graded or not yet."""
    submits = Submission.objects.filter(user_id=user_id, problem_id=problem_id, kind=Kind.SUBMIT).exclude(
        verdict=Verdict.INTERNAL_ERROR
    )
    if window.opens_at is not None:
        submits = submits.filter(created_at__gte=window.opens_at)
    if window.last_moment is not None:
        submits = submits.filter(created_at__lte=window.last_moment)
    return submits.count()


def limits_on(user, problem: Problem, now: datetime) -> list[AttemptLimit]:
    """The limits this student's Submit on this problem would be counted against now: each assignment holding it
    with a limit, in a course they are a student of, whose window is open for them."""
    if not user.is_authenticated:
        return []
    found = []
    for assignment in Assignment.objects.filter(
        items__problem=problem,
        max_submits__isnull=False,
        course__memberships__user=user,
        course__memberships__role=Role.STUDENT,
    ).select_related("course"):
        window = window_for(assignment, user)
        if credit_at(window, now, bool(assignment.time_limit_minutes)).counts:
            found.append(
                AttemptLimit(assignment, assignment.max_submits or 0, submits_used(user.pk, problem.pk, window))
            )
    return found


def refusal(user, problem: Problem, now: datetime) -> str:
    """Why this Submit may not be made (a limit used up), or "": an admission rule (``judge.submissions``)."""
    for limit in limits_on(user, problem, now):
        if limit.left == 0:
            return (
                f"you have used all {limit.allowed} Submit{'s' if limit.allowed != 1 else ''} allowed on "
                f"{problem.slug} in {limit.assignment.title} ({limit.assignment.course}); "
                "Run still checks your code on the visible examples"
            )
    return ""


def left_on(assignment: Assignment, user, now: datetime) -> dict[int, AttemptLimit]:
    """problem id -> the limit's count for this student, for the assignment page (empty without a limit or
    outside their window)."""
    if assignment.max_submits is None:
        return {}
    window = window_for(assignment, user)
    if not credit_at(window, now, bool(assignment.time_limit_minutes)).counts:
        return {}
    return {
        problem_id: AttemptLimit(assignment, assignment.max_submits, submits_used(user.pk, problem_id, window))
        for problem_id in assignment.items.values_list("problem_id", flat=True)
    }
