"""What the problem page says about a problem in the student's assignments: "due in 2 h 13 min", "late window",
"closed: practice only"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from judge.courses.attempts import AttemptLimit, submits_used
from judge.courses.deadlines import credit_at, time_left
from judge.courses.grades import window_for
from judge.courses.models import Assignment, Role


@dataclass
class DueNote:
    course: str
    assignment: str
    text: str
    counts: bool


def due_notes(user, problem, now: datetime) -> list[DueNote]:
    if not user.is_authenticated:
        return []
    assignments = Assignment.objects.filter(
        items__problem=problem, course__memberships__user=user, course__memberships__role=Role.STUDENT
    ).select_related("course")
    return [note_for(a, user, problem, now) for a in assignments]


def note_for(assignment: Assignment, user, problem, now: datetime) -> DueNote:
    window = window_for(assignment, user)
    course, title = str(assignment.course), assignment.title
    if assignment.time_limit_minutes and not window.timed:
        return DueNote(
            course,
            title,
            f"Timed ({assignment.time_limit_minutes} min): open the assignment to start "
            "your time; Submits before that do not count.",
            False,
        )
    if window.opens_at is not None and window.not_open_at(now):
        return DueNote(
            course,
            title,
            f"Opens in {time_left(window.opens_at, now)}; Submits before that are practice and do not count.",
            False,
        )
    credit = credit_at(window, now, bool(assignment.time_limit_minutes))
    if not credit.counts:
        return DueNote(course, title, "Closed: Submits still grade, as practice, but do not count.", False)
    left = ""
    if assignment.max_submits:  # the attempt limit (``courses.attempts``), counted in their window
        used = submits_used(user.pk, problem.pk, window)
        left = f" {AttemptLimit(assignment, assignment.max_submits, used).text} (Run does not count)."
    if window.due_at is None:
        return DueNote(course, title, "No due time." + left, True)
    if not credit.late:
        return DueNote(course, title, f"Due in {time_left(window.due_at, now)}." + left, True)
    return DueNote(
        course,
        title,
        f"Late: an accepted Submit now earns {round(credit.value * 100)}%; "
        + (f"closes in {time_left(window.closes_at, now)}." if window.closes_at else "closes soon.")
        + left,
        True,
    )
