"""The course leaderboard: the kept standings restricted to the course (or a section), ranked among its students,
with the site's privacy choice, and gone when the instructor turns it off."""

from __future__ import annotations

from django.urls import reverse

from judge.accounts.models import Profile
from tests.boards import recorded
from tests.courses import world  # noqa: F401 (fixture)


def board(client, w, **params) -> str:
    page = client.get(reverse("course-leaderboard", args=[w.course.pk]), params)
    assert page.status_code == 200
    return page.content.decode().split('id="standings"')[1]


def test_only_the_courses_students_are_ranked_among_themselves(client, world):
    first, second = world.problems
    recorded(world.stranger, first)
    recorded(world.stranger, second)  # sam solved most, but is not in the course
    recorded(world.second, first)
    recorded(world.second, second)
    recorded(world.student, first)
    client.force_login(world.student)
    rows = board(client, world)
    assert "sam" not in rows
    assert rows.index(f'data-user="{world.second.pk}"><td class="rank">1') < rows.index(
        f'data-user="{world.student.pk}"><td class="rank">2'
    )


def test_a_section_board_and_a_hidden_name(client, world):
    recorded(world.student, world.problems[0])
    recorded(world.second, world.problems[0])
    Profile.objects.update_or_create(user=world.second, defaults={"hide_from_standings": True})
    client.force_login(world.student)
    assert "anonymous" in board(client, world) and ">grace<" not in board(client, world)
    lab_a = board(client, world, section=world.section.pk)
    assert ">ada<" in lab_a and "anonymous" not in lab_a


def test_an_instructor_can_turn_the_board_off(client, world):
    client.force_login(world.instructor)
    client.post(reverse("course-settings", args=[world.course.pk]), {"title": world.course.title, "term": ""})
    client.force_login(world.student)
    assert client.get(reverse("course-leaderboard", args=[world.course.pk])).status_code == 404
    home = client.get(reverse("course-home", args=[world.course.pk])).content.decode()
    assert reverse("course-leaderboard", args=[world.course.pk]) not in home
