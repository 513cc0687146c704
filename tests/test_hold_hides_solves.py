"""A hold holds: until an assignment's grades are released for a student, their held accepted Submit opens no
problem that builds on it and does not count on their public profile, for them or anyone reading it; once
released (staff press Release, or their own due time passes) both catch up with nothing done by hand."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses.models import Release
from judge.courses.release import release_assignment
from judge.problems.models import Problem
from judge.submissions.composition import locked_reason
from tests.courses import DUE, world  # noqa: F401 (fixture)
from tests.desk_release import clock, graded  # noqa: F401 (fixture)


@pytest.fixture
def held(world, clock):
    """Week 1 releases on the instructor's press; second_step builds on first_step; it is the day before due."""
    w = world
    w.assignment.release = Release.MANUAL
    w.assignment.save()
    first, second = w.problems
    spec = {"function": "f", "params": ["x"], "time_limit_s": 2.0, "memory_mb": 256, "rtol": 1e-6, "atol": 1e-6}
    Problem.objects.filter(pk=second.pk).update(spec={**spec, "builds_on": [first.slug]})
    w.problems[1] = Problem.objects.get(pk=second.pk)
    w.clock = clock(DUE - timedelta(days=1))
    return w


def solved_count(client, username: str) -> str:
    page = client.get(f"/accounts/users/{username}/").content.decode()
    return re.search(r'<strong id="solved-count">(\d+)</strong>', page).group(1)


def test_a_held_accepted_submit_opens_nothing_until_staff_release(client, held):
    w = held
    graded(w.student, w.problems[0], Verdict.ACCEPTED)
    assert "solve it first" in locked_reason(w.student, w.problems[1])
    client.force_login(w.student)
    assert "Locked: solve what it builds on first" in client.get("/problems/second_step/").content.decode()

    release_assignment(w.assignment, w.instructor)
    assert locked_reason(w.student, w.problems[1]) == ""
    assert "Locked:" not in client.get("/problems/second_step/").content.decode()


def test_a_held_solve_opens_once_the_students_own_due_time_passes(held):
    w = held
    w.assignment.release = Release.AFTER_DUE
    w.assignment.save()
    graded(w.student, w.problems[0], Verdict.ACCEPTED)
    assert locked_reason(w.student, w.problems[1])
    w.clock.move_to(DUE + timedelta(minutes=1))
    assert locked_reason(w.student, w.problems[1]) == ""


def test_a_solve_from_before_the_assignment_opened_stays_open(held):
    w = held
    graded(w.student, w.problems[0], Verdict.ACCEPTED, at=w.assignment.opens_at - timedelta(days=1))
    assert locked_reason(w.student, w.problems[1]) == ""


def test_the_profile_counts_a_held_solve_for_no_one_until_release(client, held, django_user_model):
    w = held
    graded(w.student, w.problems[0], Verdict.ACCEPTED)
    graded(w.student, w.problems[1], Verdict.WRONG_ANSWER)
    outsider = django_user_model.objects.create_user("olga", "olga@example.org", "x")
    graded(outsider, w.problems[0], Verdict.ACCEPTED)  # not in the course: practice is never held

    for reader in (w.student, w.second, outsider):  # the student, a classmate, another course's student
        client.force_login(reader)
        assert solved_count(client, "ada") == "0"
        page = client.get("/accounts/users/ada/").content.decode()
        assert "Accepted" not in page and "Wrong answer" not in page
        assert solved_count(client, "olga") == "1"

    release_assignment(w.assignment, w.instructor)
    client.force_login(w.second)
    assert solved_count(client, "ada") == "1"


def test_a_course_that_shows_grades_at_once_counts_the_solve_at_once(client, held):
    w = held
    w.assignment.release = Release.AT_ONCE
    w.assignment.save()
    graded(w.student, w.problems[0], Verdict.ACCEPTED)
    assert locked_reason(w.student, w.problems[1]) == ""
    client.force_login(w.second)
    assert solved_count(client, "ada") == "1"


def test_staff_read_the_held_submit_in_full_on_the_desk(client, held):
    w = held
    submission = graded(w.student, w.problems[0], Verdict.ACCEPTED)
    client.force_login(w.ta)
    page = client.get(reverse("desk-submission", args=[w.course.pk, submission.pk])).content.decode()
    assert "Accepted" in page
