"""The grading desk: what a course's staff do with a student's work, and the audit row each leaves.

Reading is a write too: every time an instructor or TA opens another person's code, results or a comparison of
two attempts, the course's audit log says who read what (``record_reading``), so a student can be told who saw
their work.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from judge.courses.models import (
    Adjustment,
    AdjustmentKind,
    Assignment,
    Course,
    Feedback,
    GroupMember,
    Membership,
    Role,
    RubricItem,
    RubricMark,
)
from judge.courses.services import CourseError, announce_credit_rules, audit
from judge.problems.models import Problem
from judge.problems.rendering import render_markdown
from judge.submissions.models import Submission

READ_WORK = "read work"
DOWNLOADED = "downloaded work"
ADJUSTED = "adjusted points"


def record_reading(course: Course, by, student, what: str) -> None:
    """One audit row for one page of a student's work that a member of staff opened."""
    audit(course, by, READ_WORK, f"{by.username} read {student.username}'s {what}")


def record_site_reading(by, submission: Submission, what: str) -> None:
    """Site staff opened a student's work through the site's own submission pages (not the desk): a row in the
    audit log of each course the author is a student of that assigns the problem."""
    courses = Course.objects.filter(
        memberships__user_id=submission.user_id,
        memberships__role=Role.STUDENT,
        assignments__items__problem_id=submission.problem_id,
    ).distinct()
    for course in courses:
        record_reading(course, by, submission.user, what)


def record_comparison(course: Course, by, students: int, what: str) -> None:
    """One audit row for a page showing many students' work side by side (similarity)."""
    audit(course, by, READ_WORK, f"{by.username} read the final submissions of {students} student(s) {what}")


def record_download(course: Course, by, what: str) -> None:
    """One audit row for a download of many students' work (an assignment's submissions as a zip)."""
    audit(course, by, DOWNLOADED, f"{by.username} downloaded {what}")


def attempts_of(student, problem: Problem) -> QuerySet[Submission]:
    """A student's attempts on a problem, oldest first: Runs (visible examples) and Submits, without the heavy
    result data."""
    return (
        Submission.objects.filter(user=student, problem=problem)
        .order_by("created_at", "pk")
        .only("id", "kind", "status", "verdict", "custom_error", "created_at", "problem_id", "user_id")
    )


def adjustments_of(student, problem: Problem) -> dict[int, Adjustment]:
    """The points by hand this student has on this problem, by assignment id."""
    return {a.assignment_id: a for a in Adjustment.objects.filter(user=student, problem=problem)}


@transaction.atomic
def adjust_points(
    assignment: Assignment, by, student, problem: Problem, kind: str, points: float | None, reason: str
) -> Adjustment | None:
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
        assignment=assignment,
        user=student,
        problem=problem,
        defaults={"kind": kind, "points": points, "reason": reason, "by": by},
    )
    audit(assignment.course, by, ADJUSTED, f"{where}: {AdjustmentKind(kind).label} {points:g}: {reason}")
    announce_credit_rules(assignment.pk)
    return adjustment


# --- Rubrics: items with points staff tick on a student's work ------------------------------------------------

RUBRIC = "rubric"
MAX_RUBRIC_ITEMS = 30


def rubric_of(assignment: Assignment, problem: Problem) -> list[RubricItem]:
    return list(RubricItem.objects.filter(assignment=assignment, problem=problem))


@transaction.atomic
def add_rubric_item(assignment: Assignment, by, problem: Problem, label: str, points: float | None) -> RubricItem:
    """A new line of the problem's rubric on this assignment (the instructor's)."""
    label = (label or "").strip()
    errors = []
    if not assignment.items.filter(problem=problem).exists():
        errors.append(f"{problem.slug} is not a problem of {assignment.title}.")
    if not label or len(label) > 200:
        errors.append("Describe the item in 1 to 200 characters, as the student will read it.")
    if points is None or not math.isfinite(points) or points == 0 or abs(points) > 100:
        errors.append("Give the item a number of points other than 0 (negative for a deduction), at most 100.")
    if RubricItem.objects.filter(assignment=assignment, problem=problem).count() >= MAX_RUBRIC_ITEMS:
        errors.append(f"A problem's rubric holds at most {MAX_RUBRIC_ITEMS} items.")
    if errors or points is None:
        raise CourseError(errors)
    position = RubricItem.objects.filter(assignment=assignment, problem=problem).count()
    item = RubricItem.objects.create(
        assignment=assignment, problem=problem, label=label, points=points, position=position
    )
    audit(assignment.course, by, RUBRIC, f"{problem.slug} in {assignment.title!r}: added {label!r} ({points:+g})")
    return item


@transaction.atomic
def delete_rubric_item(assignment: Assignment, by, pk: int) -> None:
    item = RubricItem.objects.filter(assignment=assignment, pk=pk).select_related("problem").first()
    if item is None:
        raise CourseError("That rubric item no longer exists.")
    ticked = item.marks.count()
    item.delete()
    audit(
        assignment.course,
        by,
        RUBRIC,
        f"{item.problem.slug} in {assignment.title!r}: removed {item.label!r} "
        f"({item.points:+g}), ticked for {ticked} student(s)",
    )
    if ticked:
        announce_credit_rules(assignment.pk)


@transaction.atomic
def mark_rubric(assignment: Assignment, by, submission: Submission, ticked: set[int]) -> list[RubricItem]:
    """Tick exactly ``ticked`` (item ids) of the problem's rubric for the submission's author, and for the other
    members of their group on the assignment (the Submit is the group's); audited, and the LMS hears the score
    may differ. Returns the items ticked now."""
    student, problem = submission.user, submission.problem
    items = {i.pk: i for i in rubric_of(assignment, problem)}
    if unknown := ticked - set(items):
        raise CourseError(f"No such rubric item on {problem.slug}: {', '.join(map(str, sorted(unknown)))}.")
    if not Membership.objects.filter(course_id=assignment.course_id, user=student, role=Role.STUDENT).exists():
        raise CourseError(f"{student.username} is not a student of this course.")
    marked = [
        member for member in with_group(assignment, student) if tick_exactly(items, member, submission, ticked, by)
    ]
    if marked:
        shown = ", ".join(f"{items[pk].label} ({items[pk].points:+g})" for pk in sorted(ticked)) or "none"
        who = " and ".join(sorted(m.username for m in marked))
        audit(
            assignment.course,
            by,
            RUBRIC,
            f"{who} on {problem.slug} in {assignment.title!r} (#{submission.pk}): ticked {shown}",
        )
        announce_credit_rules(assignment.pk)
    return [items[pk] for pk in sorted(ticked)]


def with_group(assignment: Assignment, student) -> list:
    """The student, and the other members of their group on the assignment if it has groups."""
    if not assignment.group_size:
        return [student]
    group = GroupMember.objects.filter(assignment=assignment, user=student).values("group_id")
    return [m.user for m in GroupMember.objects.filter(group_id__in=group).select_related("user")] or [student]


def tick_exactly(items: dict[int, RubricItem], student, submission: Submission, ticked: set[int], by) -> bool:
    """``student``'s ticks on these items made ``ticked``; False if they were already."""
    before = set(RubricMark.objects.filter(item__in=list(items), user=student).values_list("item_id", flat=True))
    if before == ticked:
        return False
    RubricMark.objects.filter(item_id__in=before - ticked, user=student).delete()
    RubricMark.objects.bulk_create(
        (RubricMark(item_id=pk, user=student, submission=submission, by=by) for pk in ticked - before),
        ignore_conflicts=True,
    )  # two staff ticking at once
    return True


def rubrics_of(assignment: Assignment) -> dict[int, list[RubricItem]]:
    """problem id -> its rubric items on this assignment."""
    found: dict[int, list[RubricItem]] = {}
    for item in RubricItem.objects.filter(assignment=assignment):
        found.setdefault(item.problem_id, []).append(item)
    return found


def rubric_ticked_on(assignment: Assignment, student) -> dict[int, list[RubricItem]]:
    """problem id -> the rubric items ticked for this student on the assignment (what the student reads)."""
    found: dict[int, list[RubricItem]] = {}
    for mark in RubricMark.objects.filter(item__assignment=assignment, user=student).select_related("item"):
        found.setdefault(mark.item.problem_id, []).append(mark.item)
    return found


def ticked_for(student, problem: Problem) -> dict[int, set[int]]:
    """assignment id -> the rubric items ticked for this student on this problem."""
    ticked: dict[int, set[int]] = {}
    for assignment_id, item_id in RubricMark.objects.filter(user=student, item__problem=problem).values_list(
        "item__assignment_id", "item_id"
    ):
        ticked.setdefault(assignment_id, set()).add(item_id)
    return ticked


# --- Feedback on code ------------------------------------------------------------------------------------------

MAX_FEEDBACK = 5000


def _body(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise CourseError("Write something first.")
    if len(text) > MAX_FEEDBACK:
        raise CourseError(f"Keep it under {MAX_FEEDBACK} characters.")
    return text


def leave_feedback(course: Course, by, submission: Submission, body: str, line: int | None = None) -> Feedback:
    """A comment of the course's staff on one line of the submission's code, or overall (``line`` None)."""
    lines = len(submission.code.splitlines())
    if line is not None and not 1 <= line <= lines:
        raise CourseError(f"Choose a line between 1 and {lines}.")
    return Feedback.objects.create(course=course, submission=submission, author=by, line=line, body_md=_body(body))


def own_feedback(course: Course, by, pk: int) -> Feedback:
    """A comment its author may change (in a course they are still staff of): nobody else's, not even another
    member of staff's."""
    feedback = Feedback.objects.filter(pk=pk, course=course).first()
    if feedback is None or feedback.author_id != by.pk:
        raise PermissionDenied("Only the comment's author may change it.")
    return feedback


def edit_feedback(course: Course, by, pk: int, body: str) -> Feedback:
    feedback = own_feedback(course, by, pk)
    feedback.body_md, feedback.edited_at = _body(body), timezone.now()
    feedback.read_at = None  # changed words are unread again
    feedback.save(update_fields=["body_md", "edited_at", "read_at"])
    return feedback


def delete_feedback(course: Course, by, pk: int) -> Feedback:
    feedback = own_feedback(course, by, pk)
    feedback.delete()
    return feedback


def reply_to_feedback(student, pk: int, body: str) -> Feedback:
    """The student's one answer to a comment on their own submission; a second is refused."""
    feedback = Feedback.objects.filter(pk=pk, submission__user=student).first()
    if feedback is None:
        raise PermissionDenied("You can only answer comments on your own work.")
    if (
        Feedback.objects.filter(pk=pk, replied_at__isnull=True).update(reply_md=_body(body), replied_at=timezone.now())
        != 1
    ):
        raise CourseError("You have already answered this comment.")
    feedback.refresh_from_db()
    return feedback


def unread_feedback(student, course: Course) -> int:
    return Feedback.objects.filter(course=course, submission__user=student, read_at__isnull=True).count()


def feedback_for_student(student, course: Course) -> list[int]:
    """The student's submissions in this course with unread comments, newest first (their pages open them)."""
    return list(
        Feedback.objects.filter(course=course, submission__user=student, read_at__isnull=True)
        .order_by("-submission_id")
        .values_list("submission_id", flat=True)
        .distinct()
    )


def mark_read(student, submission: Submission) -> None:
    """The student opened the submission: every comment on it is read."""
    Feedback.objects.filter(submission=submission, submission__user=student, read_at__isnull=True).update(
        read_at=timezone.now()
    )


@dataclass
class ShownFeedback:
    item: Feedback
    html: SafeString
    reply_html: SafeString | None


@dataclass
class CodeLine:
    number: int
    text: str
    feedback: list[ShownFeedback] = field(default_factory=list)


def shown(item: Feedback) -> ShownFeedback:
    # render_markdown sanitises with nh3 as it does authored Markdown: what it returns is safe to place.
    body = mark_safe(render_markdown(item.body_md))  # noqa: S308 (nh3-cleaned)
    reply = mark_safe(render_markdown(item.reply_md)) if item.replied_at else None  # noqa: S308 (nh3-cleaned)
    return ShownFeedback(item, body, reply)


def feedback_on(submission: Submission) -> tuple[list[ShownFeedback], list[CodeLine]]:
    """The overall comments, and the code's lines each with its comments, as the submission pages draw them."""
    items = [shown(f) for f in Feedback.objects.filter(submission=submission).select_related("author")]
    lines = [CodeLine(n, text) for n, text in enumerate(submission.code.splitlines(), start=1)]
    for f in items:
        if f.item.line is not None and f.item.line <= len(lines):
            lines[f.item.line - 1].feedback.append(f)
    return [f for f in items if f.item.line is None], lines
