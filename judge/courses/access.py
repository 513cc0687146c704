"""Who may do what in a course: one helper per protected object, so the check cannot be forgotten.

Someone with no role in a course gets 404 for its pages (a course's existence is not public); a member whose
role is not enough gets 403. Site staff create courses but have no power inside one they are not a member of.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from judge.courses.models import Assignment, Course, Membership, Role

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


def get_assignment_for_user(user, course_pk: int, pk: int, roles: tuple[str, ...] = tuple(Role.values)
                            ) -> tuple[Assignment, str]:
    course, role = get_course_for_user(user, course_pk, roles)
    return get_object_or_404(Assignment, course=course, pk=pk), role
