"""Every course page checks the viewer's role in that course: 404 for people outside it (another course's
instructor included), 403 for a role that may not, 200 otherwise."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.courses import world  # noqa: F401 (fixture)

PERSONAS = ("instructor", "ta", "student", "second", "stranger", "other_instructor")


def urls(w):
    c, a = w.course.pk, w.assignment.pk
    return {
        "home": reverse("course-home", args=[c]),
        "settings": reverse("course-settings", args=[c]),
        "people": reverse("course-people", args=[c]),
        "gradebook": reverse("course-gradebook", args=[c]),
        "gradebook-csv": reverse("course-gradebook-csv", args=[c]),
        "assignment-new": reverse("assignment-new", args=[c]),
        "assignment": reverse("assignment-detail", args=[c, a]),
        "assignment-edit": reverse("assignment-edit", args=[c, a]),
        "overrides": reverse("assignment-overrides", args=[c, a]),
        "progress": reverse("assignment-progress", args=[c, a]),
        "insights": reverse("assignment-insights", args=[c, a]),
        "leaderboard": reverse("course-leaderboard", args=[c]),
        "similarity": reverse("assignment-similarity", args=[c, a]),
        "groups": reverse("assignment-groups", args=[c, a]),
    }


#                   instructor ta   student second stranger other_instructor
EXPECTED = {
    "home": (200, 200, 200, 200, 404, 404),
    "settings": (200, 403, 403, 403, 404, 404),
    "people": (200, 200, 403, 403, 404, 404),
    "gradebook": (200, 200, 403, 403, 404, 404),
    "gradebook-csv": (200, 200, 403, 403, 404, 404),
    "assignment-new": (200, 403, 403, 403, 404, 404),
    "assignment": (200, 200, 200, 200, 404, 404),
    "assignment-edit": (200, 403, 403, 403, 404, 404),
    "overrides": (200, 200, 403, 403, 404, 404),
    "progress": (200, 200, 403, 403, 404, 404),
    "insights": (200, 200, 403, 403, 404, 404),
    "leaderboard": (200, 200, 200, 200, 404, 404),
    "similarity": (200, 403, 403, 403, 404, 404),
    "groups": (200, 200, 403, 403, 404, 404),
}


def test_every_course_url_answers_each_persona_by_their_role(client, world):
    seen = {}
    for page, url in urls(world).items():
        for persona in PERSONAS:
            client.force_login(getattr(world, persona))
            seen[(page, persona)] = client.get(url).status_code
    expected = {(page, persona): code for page, codes in EXPECTED.items() for persona, code in zip(PERSONAS, codes)}
    assert seen == expected


@pytest.mark.parametrize("page", ["home", "settings", "gradebook", "assignment", "progress"])
def test_anonymous_visitors_are_sent_to_log_in(client, world, page):
    response = client.get(urls(world)[page])
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_ta_cannot_change_settings_roster_dates_or_overrides(client, world):
    client.force_login(world.ta)
    u = urls(world)
    assert client.post(u["settings"], {"title": "Renamed", "leaderboard_enabled": ""}).status_code == 403
    assert client.post(u["settings"], {"rotate": "1"}).status_code == 403
    assert client.post(u["assignment-edit"], {"title": "x"}).status_code == 403
    assert (
        client.post(u["overrides"], {"student": "ada", "reason": "x", "due_at": "2026-04-01T10:00"}).status_code == 403
    )
    assert client.post(u["people"], {}).status_code == 403
    world.course.refresh_from_db()
    assert world.course.title == "Transformers in NumPy"
    assert not world.assignment.overrides.exists()


def test_another_courses_instructor_cannot_change_this_one(client, world):
    client.force_login(world.other_instructor)
    code = world.course.join_code
    assert client.post(urls(world)["settings"], {"rotate": "1"}).status_code == 404
    world.course.refresh_from_db()
    assert world.course.join_code == code


def test_only_staff_create_courses(client, world):
    client.force_login(world.instructor)
    assert client.post(reverse("course-create"), {"title": "Mine"}).status_code == 403


def test_the_public_site_works_for_people_in_no_course(client, world):
    client.force_login(world.stranger)
    assert client.get(reverse("problem-list")).status_code == 200
    response = client.get(reverse("course-list"))
    assert response.status_code == 200 and "You are in no course yet" in response.content.decode()
