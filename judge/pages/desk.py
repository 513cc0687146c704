"""The grading desk's pages: a course's instructor or TA reads a student's attempts on one of the course's
problems, one submission in full (hidden tests included) and the change between two attempts.

Access is the course's (``courses.access``: staff of that course only, the student a student of it, the
problem one of its assignments'); each page writes an audit row before it answers (``courses.desk``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from judge.authoring.models import ReportKind
from judge.courses import desk, groups
from judge.courses.access import (
    READ_ALL,
    course_problem_ids,
    get_course_for_user,
    get_student_for_staff,
    get_work_for_staff,
)
from judge.courses.grades import grade_assignment, students_of
from judge.courses.models import Assignment, AssignmentProblem
from judge.courses.services import CourseError
from judge.courses.timezones import activate_for
from judge.display import results
from judge.display.diffs import code_diff
from judge.problems.models import Problem


def course_student_problem(request, pk: int, student_pk: int, slug: str):
    course, member = get_student_for_staff(request.user, pk, student_pk)
    problem = get_object_or_404(Problem, slug=slug)
    if problem.pk not in course_problem_ids(course):
        raise Http404("This problem is in none of the course's assignments.")
    return course, member, problem


@login_required
def student_attempts(request, pk: int, student_pk: int, slug: str):
    course, member, problem = course_student_problem(request, pk, student_pk, slug)
    activate_for(request.user)
    attempts = list(desk.attempts_of(member.user, problem))
    desk.record_reading(course, request.user, member.user, f"attempts on {problem.slug}")
    return render(
        request,
        "desk/attempts.html",
        {
            "course": course,
            "student": member.user,
            "problem": problem,
            "attempts": attempts,
            "newest_two": [a.pk for a in attempts[-2:]],
            "points": points_by_assignment(course, member, problem),
        },
    )


def points_by_assignment(course, member, problem) -> list[dict]:
    """Per assignment holding the problem: the student's credit there (the one rule's), and any points by hand."""
    student = students_of(course, user_id=member.user_id)
    held = Assignment.objects.filter(
        pk__in=AssignmentProblem.objects.filter(assignment__course=course, problem=problem).values("assignment_id")
    )
    by_hand = desk.adjustments_of(member.user, problem)
    return [
        {
            "assignment": a,
            "credit": grade_assignment(a, student).credit(member.user_id, problem.pk),
            "adjustment": by_hand.get(a.pk),
            "group": group_note(a, member.user),
        }
        for a in held
    ]


def group_note(assignment, student) -> str:
    """ "group K7MPQ2XA with grace, hal" when the student shares their credit on the assignment, else ""."""
    group = groups.group_of(assignment, student) if assignment.group_size else None
    if group is None:
        return ""
    others = [m.username for m in groups.members_of(group) if m.pk != student.pk]
    return f"group {group.code} with {', '.join(others) or 'nobody else yet'}"


@login_required
@require_POST
def adjust_points(request, pk: int, student_pk: int, slug: str):
    course, member, problem = course_student_problem(request, pk, student_pk, slug)
    assignment = get_object_or_404(Assignment, course=course, pk=request.POST.get("assignment") or 0)
    try:
        points = None if request.POST.get("remove") else float(request.POST.get("points", ""))
    except ValueError:
        points = float("nan")  # refused below with the service's message
    try:
        desk.adjust_points(
            assignment,
            request.user,
            member.user,
            problem,
            request.POST.get("kind", ""),
            points,
            request.POST.get("reason", ""),
        )
    except CourseError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, f"Points by hand saved for {member.user.username} in {assignment.title}.")
    return redirect("desk-attempts", course.pk, member.user_id, problem.slug)


@login_required
def student_submission(request, pk: int, submission_pk: int):
    course, submission = get_work_for_staff(request.user, pk, submission_pk)
    activate_for(request.user)
    desk.record_reading(
        course, request.user, submission.user, f"submission #{submission.pk} on {submission.problem.slug}"
    )
    final = submission.is_final
    overall, lines = desk.feedback_on(submission)
    return render(
        request,
        "desk/submission.html",
        {
            "course": course,
            "submission": submission,
            "overall": overall,
            "lines": lines,
            "staff": True,
            "rubrics": rubrics_for(course, submission),
            "report_kinds": ReportKind.choices,
            "report_url": reverse("problem-report", args=[submission.pk]),
            "rows": results.result_rows(submission, staff=True) if final else [],
            "error_line": results.error_line(submission) if final else None,
        },
    )


def rubrics_for(course, submission) -> list[dict]:
    """Per assignment of the course holding the problem with a rubric: its items, those ticked for the student,
    and the student's credit there now (the one rule's)."""
    student = students_of(course, user_id=submission.user_id)
    ticked = desk.ticked_for(submission.user, submission.problem)
    shown = []
    for assignment in Assignment.objects.filter(course=course, items__problem=submission.problem):
        items = desk.rubric_of(assignment, submission.problem)
        if items:
            shown.append(
                {
                    "assignment": assignment,
                    "items": items,
                    "ticked": ticked.get(assignment.pk, set()),
                    "credit": grade_assignment(assignment, student).credit(submission.user_id, submission.problem_id),
                }
            )
    return shown


@login_required
@require_POST
def mark_rubric(request, pk: int, submission_pk: int):
    course, submission = get_work_for_staff(request.user, pk, submission_pk)
    assignment = get_object_or_404(Assignment, course=course, pk=request.POST.get("assignment") or 0)
    try:
        ticked = {int(value) for value in request.POST.getlist("item")}
        desk.mark_rubric(assignment, request.user, submission, ticked)
    except ValueError:
        messages.error(request, "Tick the rubric's items.")
    except CourseError as error:
        messages.error(request, error.messages[0])
    else:
        messages.success(request, f"Rubric saved for {submission.user.username} in {assignment.title}.")
    return redirect("desk-submission", course.pk, submission.pk)


@login_required
def attempts_diff(request, pk: int):
    try:
        older_pk, newer_pk = int(request.GET["a"]), int(request.GET["b"])
    except (KeyError, ValueError):
        return HttpResponseBadRequest("choose two attempts to compare")
    course, older = get_work_for_staff(request.user, pk, older_pk)
    _, newer = get_work_for_staff(request.user, pk, newer_pk)
    if (older.user_id, older.problem_id) != (newer.user_id, newer.problem_id):
        return HttpResponseBadRequest("compare two attempts of one student on one problem")
    if (older.created_at, older.pk) > (newer.created_at, newer.pk):
        older, newer = newer, older
    desk.record_reading(
        course, request.user, older.user, f"change from #{older.pk} to #{newer.pk} on {older.problem.slug}"
    )
    return render(
        request, "desk/diff.html", {"course": course, "older": older, "newer": newer, "lines": code_diff(older, newer)}
    )


@login_required
@require_POST
def leave_feedback(request, pk: int, submission_pk: int):
    course, submission = get_work_for_staff(request.user, pk, submission_pk)
    line = request.POST.get("line", "").strip()
    try:
        desk.leave_feedback(
            course, request.user, submission, request.POST.get("body", ""), int(line) if line.isdigit() else None
        )
    except CourseError as error:
        messages.error(request, error.messages[0])
    return redirect("desk-submission", course.pk, submission.pk)


@login_required
@require_POST
def change_feedback(request, pk: int, feedback_pk: int):
    """Its author edits or deletes a comment (another member of staff may not)."""
    course, _ = get_course_for_user(request.user, pk, READ_ALL)
    try:
        if request.POST.get("action") == "delete":
            feedback = desk.delete_feedback(course, request.user, feedback_pk)
        else:
            feedback = desk.edit_feedback(course, request.user, feedback_pk, request.POST.get("body", ""))
    except CourseError as error:
        messages.error(request, error.messages[0])
        return redirect(request.META.get("HTTP_REFERER") or "course-home", course.pk)
    return redirect("desk-submission", course.pk, feedback.submission_id)
