"""Who may read the solutions published for a problem: one place, so no page or API forgets a case.

Staff read everything (they moderate).  Anyone else must be signed in and have solved the problem (an accepted
Submit of their own), and must not be a student of a course whose assignment holds the problem and is still
open: before its due time, or while the assignment holds its grades (``courses.release``), in a timed assignment at all until its last moment, and while an override still lets any
student of the course submit to it.  An assignment without an end keeps them closed to its course.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.http import Http404
from django.shortcuts import get_object_or_404

from judge.courses.deadlines import overridden, window_of
from judge.courses.models import Assignment, Role
from judge.courses.release import holds_for
from judge.problems.models import Problem
from judge.solutions.models import PublishedSolution
from judge.submissions.queries import accepted_submits


@dataclass(frozen=True)
class Reading:
    allowed: bool
    why_not: str = ""  # what a refused reader is told


def has_solved(user, problem: Problem) -> bool:
    return user.is_authenticated and accepted_submits().filter(user=user, problem=problem).exists()


def reading(user, problem: Problem, now: datetime) -> Reading:
    if not user.is_authenticated:
        return Reading(False, "Log in and solve this problem to read the solutions others published.")
    if user.is_staff:
        return Reading(True)
    if holds_for(user, [problem.pk]):  # asked before "solved?": the answer would tell a held grade
        return Reading(
            False,
            "Published solutions stay closed until your course releases the grades of the "
            "assignment that holds this problem.",
        )
    if not has_solved(user, problem):
        return Reading(
            False, "Solve this problem first (an accepted Submit): then you can read the solutions others published."
        )
    assignment = open_assignment(user, problem, now)
    if assignment is not None:
        kind = "timed assignment" if assignment.time_limit_minutes else "assignment"
        return Reading(
            False,
            f"Published solutions stay closed while the {kind} {assignment.title!r} of "
            f"{assignment.course} holds this problem; they open after it ends.",
        )
    return Reading(True)


def open_assignment(user, problem: Problem, now: datetime) -> Assignment | None:
    """An assignment of a course the user is a student of that holds the problem and is not over for its class."""
    assignments = (
        Assignment.objects.filter(
            items__problem=problem, course__memberships__user=user, course__memberships__role=Role.STUDENT
        )
        .select_related("course")
        .prefetch_related("overrides")
        .distinct()
    )
    for assignment in assignments:
        end = class_end(assignment)
        if end is None or now <= end:
            return assignment
    return None


def class_end(assignment: Assignment) -> datetime | None:
    """The last moment anyone in the course may still submit to it for credit; None: it never ends."""
    window = window_of(assignment)
    ends = [window.last_moment] + [overridden(window, override).last_moment for override in assignment.overrides.all()]
    if any(end is None for end in ends):
        return None
    return max(e for e in ends if e is not None)


def get_solution_for_user(user, pk: int, now: datetime) -> PublishedSolution:
    """A published solution as this user may see it; 404 for one they may not (its author always may)."""
    solution = get_object_or_404(PublishedSolution.objects.select_related("submission", "problem", "user"), pk=pk)
    if solution.user_id == getattr(user, "pk", None):
        return solution
    if solution.withdrawn_at is not None or (solution.hidden_at is not None and not user.is_staff):
        raise Http404("No such solution.")
    if not solution.problem.published and not user.is_staff:
        raise Http404("No such solution.")
    if not reading(user, solution.problem, now).allowed:
        raise Http404("No such solution.")
    return solution
