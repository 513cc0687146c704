"""Every look at another person's work by staff is in the course's audit log, not only the desk's pages: site
staff opening a course student's submission or a comparison through the site's own pages, and an instructor's
similarity check, which shows every student's final code side by side. A student reading their own work, and
site staff reading work that is no course's, write nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses.models import CourseAudit
from tests.boards import quick_problem, recorded
from tests.courses import DUE, world  # noqa: F401 (fixture)


@pytest.fixture
def site_staff(world):
    return get_user_model().objects.get(username="staffer")


def readings(course) -> list[str]:
    return list(CourseAudit.objects.filter(course=course, action="read work").values_list("summary", flat=True))


def test_site_staff_reading_a_students_submission_is_in_the_courses_log(client, world, site_staff):
    submission = recorded(world.student, world.problems[0], Verdict.WRONG_ANSWER, at=DUE - timedelta(days=1))
    client.force_login(site_staff)
    assert client.get(reverse("submission-detail", args=[submission.pk])).status_code == 200
    assert readings(world.course) == [f"staffer read ada's submission #{submission.pk} on first_step (site staff)"]
    assert readings(world.other) == []


def test_site_staff_comparing_two_attempts_is_in_the_courses_log(client, world, site_staff):
    older = recorded(world.student, world.problems[0], Verdict.WRONG_ANSWER, at=DUE - timedelta(days=2))
    newer = recorded(world.student, world.problems[0], Verdict.ACCEPTED, at=DUE - timedelta(days=1))
    client.force_login(site_staff)
    assert client.get(reverse("submission-diff") + f"?a={older.pk}&b={newer.pk}").status_code == 200
    assert readings(world.course) == [f"staffer read ada's change from #{older.pk} to #{newer.pk} (site staff)"]


def test_a_student_reading_their_own_work_and_work_outside_courses_write_nothing(client, world, site_staff):
    mine = recorded(world.student, world.problems[0], Verdict.ACCEPTED, at=DUE - timedelta(days=1))
    elsewhere = recorded(world.student, quick_problem("not_assigned", order=3), Verdict.ACCEPTED)
    client.force_login(world.student)
    client.get(reverse("submission-detail", args=[mine.pk]))
    client.force_login(site_staff)
    client.get(reverse("submission-detail", args=[elsewhere.pk]))
    assert readings(world.course) == []


def test_the_similarity_check_is_in_the_courses_log(client, world):
    for user in (world.student, world.second):
        recorded(user, world.problems[0], Verdict.ACCEPTED, at=DUE - timedelta(days=1))
    client.force_login(world.instructor)
    url = reverse("assignment-similarity", args=[world.course.pk, world.assignment.pk])
    client.get(url)  # the page before the check is run shows no code
    assert readings(world.course) == []
    client.get(url + "?problem=first_step&run=1")
    assert readings(world.course) == ["iris read the final submissions of 2 student(s) on first_step (similarity)"]
