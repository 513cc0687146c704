"""Regrade requests: a student asks the course's staff to look again at one of their Submits on an assignment whose
grades are released; staff reply, and resolve it with or without a change of points.

A change of points goes through the one rule's adjustment (``courses.desk.adjust_points``): audited with the
request's number as its reason, and sent to the LMS like any other. Each step leaves a row in the course's
audit log, and the student is told on their course page when staff answer.
"""

from __future__ import annotations

import math

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from judge.courses.desk import adjust_points
from judge.courses.grades import window_for
from judge.courses.models import Assignment, Membership, Notice, Role
from judge.courses.release import released_for
from judge.courses.services import CourseError, audit
from judge.regrades.models import RegradeMessage, RegradeRequest, RegradeStatus
from judge.submissions.models import Kind, Submission

MAX_MESSAGE = 2000
REGRADE = "regrade"


def _body(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise CourseError("Write a message: say what you think was graded wrongly.")
    if len(text) > MAX_MESSAGE:
        raise CourseError(f"Keep the message under {MAX_MESSAGE} characters.")
    return text


def regrade_choices(student, submission: Submission) -> list[Assignment]:
    """The assignments a student may ask a regrade of this Submit in: theirs as a student, holding its problem,
    with grades released to them."""
    if submission.user_id != student.pk or submission.kind != Kind.SUBMIT or not submission.is_final:
        return []
    now = timezone.now()
    assignments = (
        Assignment.objects.filter(
            items__problem_id=submission.problem_id,
            course__memberships__user=student,
            course__memberships__role=Role.STUDENT,
        )
        .select_related("course")
        .distinct()
    )
    return [a for a in assignments if released_for(a, window_for(a, student), now)]


def askable(student, submission: Submission) -> list[Assignment]:
    """What the submission's page offers: ``regrade_choices`` less those with a request still open on it."""
    pending = set(
        RegradeRequest.objects.filter(submission=submission)
        .exclude(status=RegradeStatus.CLOSED)
        .values_list("assignment_id", flat=True)
    )
    return [a for a in regrade_choices(student, submission) if a.pk not in pending]


def ask_regrade(student, submission: Submission, assignment_id: int | None, message: str) -> RegradeRequest:
    body = _body(message)
    assignment = next((a for a in regrade_choices(student, submission) if a.pk == assignment_id), None)
    if assignment is None:
        raise CourseError(
            "A regrade can be asked on your own graded Submit, in an assignment whose grades are released."
        )
    try:
        with transaction.atomic():
            request = RegradeRequest.objects.create(
                course=assignment.course, assignment=assignment, submission=submission, student=student
            )
            RegradeMessage.objects.create(request=request, author=student, body=body)
            audit(
                assignment.course,
                student,
                REGRADE,
                f"{student.username} asked a regrade of #{submission.pk} "
                f"in {assignment.title!r} (request #{request.pk})",
            )
    except IntegrityError:
        raise CourseError("You already have an open regrade request on this Submit; add to it instead.") from None
    return request


def follow_up(student, request: RegradeRequest, message: str) -> RegradeMessage:
    """The student writes again on their request (not once it is closed): it is open again for staff."""
    if request.student_id != student.pk:
        raise CourseError("Only the student who asked can write on this request.")
    if request.status == RegradeStatus.CLOSED:
        raise CourseError("This request is closed; ask a new one if something is still wrong.")
    with transaction.atomic():
        reply = RegradeMessage.objects.create(request=request, author=student, body=_body(message))
        RegradeRequest.objects.filter(pk=request.pk).update(status=RegradeStatus.OPEN, updated_at=timezone.now())
    return reply


def _staff_step(staff, request: RegradeRequest) -> None:
    if not Membership.objects.filter(
        course=request.course_id, user=staff, role__in=(Role.INSTRUCTOR, Role.TA)
    ).exists():
        raise CourseError("Only the course's instructors and TAs answer regrade requests.")


@transaction.atomic
def answer(staff, request: RegradeRequest, message: str) -> RegradeMessage:
    """A reply of the staff's; the request waits for the student (ANSWERED) and the student is told."""
    _staff_step(staff, request)
    if request.status == RegradeStatus.CLOSED:
        raise CourseError("This request is closed.")
    reply = RegradeMessage.objects.create(request=request, author=staff, from_staff=True, body=_body(message))
    request.status = RegradeStatus.ANSWERED
    request.assignee = request.assignee or staff
    request.save()
    _tell(request, f"The course's staff answered your regrade request on {request.submission.problem.title}.")
    audit(request.course, staff, REGRADE, f"{staff.username} answered regrade request #{request.pk}")
    return reply


@transaction.atomic
def resolve(
    staff, request: RegradeRequest, message: str, kind: str = "", points: float | None = None
) -> RegradeRequest:
    """Close the request, with a change of points (``kind`` and ``points``, as an adjustment) or without."""
    _staff_step(staff, request)
    if request.status == RegradeStatus.CLOSED:
        raise CourseError("This request is closed already.")
    body = _body(message)
    change = ""
    if points is not None:
        if not math.isfinite(points):
            raise CourseError("Give the points as a number.")
        adjust_points(
            request.assignment,
            staff,
            request.student,
            request.submission.problem,
            kind,
            points,
            f"regrade request #{request.pk}: {body}"[:500],
        )
        change = f"{'points set to' if kind == 'override' else 'points moved by'} {points:g}"
    RegradeMessage.objects.create(request=request, author=staff, from_staff=True, body=body, points_change=change)
    request.status = RegradeStatus.CLOSED
    request.assignee = request.assignee or staff
    request.save()
    outcome = f"resolved ({change})" if change else "resolved without a change of points"
    _tell(request, f"Your regrade request on {request.submission.problem.title} was {outcome}.")
    audit(request.course, staff, REGRADE, f"{staff.username} {outcome}: regrade request #{request.pk}")
    return request


def take(staff, request: RegradeRequest) -> None:
    """A member of staff takes the request: the queue shows it as theirs."""
    _staff_step(staff, request)
    RegradeRequest.objects.filter(pk=request.pk).update(assignee=staff)


def _tell(request: RegradeRequest, text: str) -> None:
    Notice.objects.create(
        course_id=request.course_id,
        user_id=request.student_id,
        text=text,
        link=f"/submissions/{request.submission_id}/#regrade",
    )


def queue(
    course, status: str = "", assignment_id: int | None = None, assignee_id: int | None = None
) -> QuerySet[RegradeRequest]:
    """A course's requests, newest change first, filtered by status, assignment and the staff member handling."""
    found = RegradeRequest.objects.filter(course=course).select_related(
        "student", "assignment", "submission__problem", "assignee"
    )
    if status in RegradeStatus.values:
        found = found.filter(status=status)
    if assignment_id:
        found = found.filter(assignment_id=assignment_id)
    if assignee_id:
        found = found.filter(assignee_id=assignee_id)
    return found


def requests_on(submission: Submission) -> list[RegradeRequest]:
    """The regrade requests on a submission with their conversations (the submission's page shows them)."""
    return list(
        RegradeRequest.objects.filter(submission=submission)
        .select_related("assignment")
        .prefetch_related("messages__author")
    )
