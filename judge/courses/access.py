"""Who may do what in a course: one helper per protected object, so the check cannot be forgotten.

Someone with no role in a course gets 404 for its pages (a course's existence is not public); a member whose
role is not enough gets 403. Site staff create courses but have no power inside one they are not a member of
(they read any submission through the submission pages, as before courses).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from judge.courses.models import Assignment, AssignmentProblem, Course, Membership, Role
from judge.submissions.models import Submission

READ_ALL = (Role.INSTRUCTOR, Role.TA)  # see every student's work
CHANGE = (Role.INSTRUCTOR,)  # change settings, rosters, dates and grades


def role_in(user, course: Course) -> str | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(course=course, user=user).values_list("role", flat=True).first()


def get_course_for_user(user, pk: int, roles: tuple[str, ...] = tuple(Role.values)) -> tuple[Course, str]:
    course = get_object_or_404(Course, pk=pk)
    role = role_in(user, course)
    if role is None:
        raise Http404("No such course.")
    if role not in roles:
        raise PermissionDenied("Your role in this course does not allow this.")
    return course, role


def get_assignment_for_user(
    user, course_pk: int, pk: int, roles: tuple[str, ...] = tuple(Role.values)
) -> tuple[Assignment, str]:
    course, role = get_course_for_user(user, course_pk, roles)
    return get_object_or_404(Assignment, course=course, pk=pk), role


def get_student_for_staff(user, course_pk: int, student_pk: int) -> tuple[Course, Membership]:
    """A student of the course, for its instructor or TA (the grading desk): 404 outside the course, 403 for its
    students, 404 for someone who is not a student of it."""
    course, _ = get_course_for_user(user, course_pk, READ_ALL)
    member = get_object_or_404(
        Membership.objects.select_related("user"), course=course, user_id=student_pk, role=Role.STUDENT
    )
    return course, member


def course_problem_ids(course: Course) -> set[int]:
    """The problems of the course's assignments: the only work of its students its staff may read."""
    return set(AssignmentProblem.objects.filter(assignment__course=course).values_list("problem_id", flat=True))


def get_work_for_staff(user, course_pk: int, submission_pk: int) -> tuple[Course, Submission]:
    """A submission of one of the course's students on one of its problems, for the course's staff; 404 for any
    other submission (a student's work elsewhere on the site is not the course's)."""
    course, _ = get_course_for_user(user, course_pk, READ_ALL)
    submission = get_object_or_404(Submission.objects.select_related("problem", "user"), pk=submission_pk)
    if not (
        Membership.objects.filter(course=course, user_id=submission.user_id, role=Role.STUDENT).exists()
        and submission.problem_id in course_problem_ids(course)
    ):
        raise Http404("No such submission in this course.")
    return course, submission
