""" "See as the student": a course's instructor or TA opens an assignment's page exactly as one of its students
sees it (their dates, their credit or their held grade, the Submits they have left), read-only, with a banner,
audited. Nobody else may, and nothing on the page acts as the student."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from engine.verdicts import Verdict
from judge.courses import services
from judge.courses.models import CourseAudit, Release, TimedStart
from judge.courses.timezones import choose_time_zone
from tests.boards import recorded
from tests.courses import DUE, world  # noqa: F401 (fixture)

PERSONAS = ("instructor", "ta", "student", "second", "stranger", "other_instructor", "site_staff")


def as_student_url(w, username: str = "ada", assignment=None) -> str:
    assignment = assignment or w.assignment
    return reverse("assignment-as-student", args=[w.course.pk, assignment.pk]) + f"?student={username}"


@pytest.fixture
def site_staff(world):
    world.site_staff = get_user_model().objects.get(username="staffer")
    return world


def test_only_the_courses_instructor_and_ta_see_the_page_as_a_student(client, site_staff):
    w = site_staff
    seen = {}
    for persona in PERSONAS:
        client.force_login(getattr(w, persona))
        seen[persona] = client.get(as_student_url(w)).status_code
    assert seen == {
        "instructor": 200,
        "ta": 200,
        "student": 403,
        "second": 403,
        "stranger": 404,
        "other_instructor": 404,
        "site_staff": 404,
    }


def test_the_page_is_the_students_own_with_a_banner(client, world):
    recorded(world.student, world.problems[0], Verdict.ACCEPTED, at=DUE - timedelta(hours=1))
    client.force_login(world.student)
    own = client.get(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])).content.decode()
    client.force_login(world.ta)
    seen = client.get(as_student_url(world)).content.decode()
    assert "Seen as ada:" in seen and "read-only" in seen
    for shown in ("Your points: <strong>1</strong> of 2.", "1.00 credit", 'id="my-dates"'):
        assert shown in own and shown in seen


def test_a_held_grade_stays_held_on_the_page_staff_see_as_the_student(client, world):
    world.assignment.release = Release.MANUAL
    world.assignment.save()
    recorded(world.student, world.problems[0], Verdict.ACCEPTED, at=DUE - timedelta(hours=1))
    client.force_login(world.instructor)
    seen = client.get(as_student_url(world)).content.decode()
    assert "1 Submit received and graded; grade not released yet" in seen
    assert "credit" not in seen.split('id="problems"')[1].split("</ol>")[0]


def test_dates_are_in_the_students_time_zone(client, world):
    choose_time_zone(world.student, "Asia/Tokyo")
    client.force_login(world.instructor)
    seen = client.get(as_student_url(world)).content.decode()
    assert "Asia/Tokyo" in seen


def test_nothing_on_the_page_acts_as_the_student(client, world):
    now = timezone.now()
    timed = services.save_assignment(
        world.course,
        world.instructor,
        {
            "title": "Exam",
            "opens_at": now - timedelta(days=1),
            "due_at": now + timedelta(days=1),
            "time_limit_minutes": 60,
        },
        [world.problems[0]],
    )
    client.force_login(world.student)
    own = client.get(reverse("assignment-detail", args=[world.course.pk, timed.pk])).content.decode()
    assert 'name="start"' in own  # the student's own page starts their time
    client.force_login(world.instructor)
    seen = client.get(as_student_url(world, assignment=timed)).content.decode()
    main = seen.split("<main", 1)[1] if "<main" in seen else seen
    assert 'name="start"' not in main and "only ada can start their time" in main
    assert not re.search(r'<form[^>]*method="post"', main.split('id="problems"')[0])
    assert not TimedStart.objects.filter(user=world.student).exists()
    # Each problem opens the student's attempts on the desk, not the staff member's own problem page.
    assert reverse("desk-attempts", args=[world.course.pk, world.student.pk, world.problems[0].slug]) in seen


def test_each_look_is_in_the_course_audit_log(client, world):
    client.force_login(world.ta)
    client.get(as_student_url(world))
    row = CourseAudit.objects.filter(course=world.course, action="read work").get()
    assert row.user == world.ta
    assert row.summary == "tariq read ada's page of 'Week 1', seen as the student"


def test_someone_who_is_not_a_student_of_the_course_is_refused_and_not_audited(client, world):
    client.force_login(world.instructor)
    for name in ("tariq", "sam", "otto", ""):
        response = client.get(as_student_url(world, name), follow=True)
        assert response.redirect_chain[-1][0] == reverse(
            "assignment-detail", args=[world.course.pk, world.assignment.pk]
        )
    assert not CourseAudit.objects.filter(course=world.course, action="read work").exists()


def test_the_staff_page_offers_the_view_and_the_downloads(client, world):
    client.force_login(world.ta)
    page = client.get(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert reverse("assignment-as-student", args=[world.course.pk, world.assignment.pk]) in page
    assert reverse("assignment-download", args=[world.course.pk, world.assignment.pk]) + "?every=1" in page
    client.force_login(world.student)
    page = client.get(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert "as-student-form" not in page and "submissions.zip" not in page


def test_a_students_attempts_on_the_desk_link_to_their_view_of_each_assignment(client, world):
    client.force_login(world.ta)
    page = client.get(reverse("desk-attempts", args=[world.course.pk, world.student.pk, world.problems[0].slug]))
    assert as_student_url(world) in page.content.decode()
