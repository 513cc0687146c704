"""Personas for the course tests: an instructor, a TA, two students, a stranger, another course's instructor."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from judge.courses import services
from judge.courses.models import Assignment, Course, LateRule, Membership, Role, Section
from tests.boards import quick_problem

PASSWORD = "correct horse battery"
DUE = datetime(2026, 3, 2, 17, 0, tzinfo=UTC)


@dataclass
class World:
    course: Course
    other: Course
    assignment: Assignment
    section: Section
    instructor: object
    ta: object
    student: object
    second: object
    stranger: object
    other_instructor: object
    problems: list


def make_world(django_user_model) -> World:
    users = {
        name: django_user_model.objects.create_user(name, f"{name}@example.org", PASSWORD)
        for name in ("iris", "tariq", "ada", "grace", "sam", "otto")
    }
    staff = django_user_model.objects.create_user("staffer", "staff@example.org", PASSWORD, is_staff=True)
    course = services.create_course(staff, "Transformers in NumPy", "Spring 2026")
    other = services.create_course(staff, "Other course", "Spring 2026")
    Membership.objects.filter(user=staff).delete()  # staff made the courses; the instructors run them
    section = Section.objects.create(course=course, name="Lab A")
    Membership.objects.create(course=course, user=users["iris"], role=Role.INSTRUCTOR)
    Membership.objects.create(course=course, user=users["tariq"], role=Role.TA)
    Membership.objects.create(course=course, user=users["ada"], role=Role.STUDENT, section=section)
    Membership.objects.create(course=course, user=users["grace"], role=Role.STUDENT)
    Membership.objects.create(course=other, user=users["otto"], role=Role.INSTRUCTOR)
    problems = [quick_problem("first_step", order=1), quick_problem("second_step", order=2)]
    assignment = services.save_assignment(
        course,
        users["iris"],
        {
            "title": "Week 1",
            "opens_at": DUE - timedelta(days=7),
            "due_at": DUE,
            "closes_at": DUE + timedelta(days=2),
            "late_rule": LateRule.MULTIPLIER,
            "late_multiplier": 0.5,
            "weight": 1.0,
        },
        problems,
    )
    return World(
        course,
        other,
        assignment,
        section,
        users["iris"],
        users["tariq"],
        users["ada"],
        users["grace"],
        users["sam"],
        users["otto"],
        problems,
    )


@pytest.fixture
def world(db, django_user_model) -> World:
    return make_world(django_user_model)


def unlinked(html: str) -> str:
    """A gradebook or matrix row without the links its cells carry (each opens the student's attempts)."""
    return re.sub(r'<a href="[^"]*">|</a>', "", html)
