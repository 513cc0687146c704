"""The pictures on the instructor's live view: a histogram of the points the gradebook gives, and the class's
first solves over time, in the viewer's time zone."""

from __future__ import annotations

import re
from datetime import timedelta

from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses.timezones import choose_time_zone
from tests.boards import recorded
from tests.courses import DUE, world  # noqa: F401 (fixture)

HOUR = timedelta(hours=1)


def figure(client, w, css_id: str) -> str:
    page = client.get(reverse("assignment-progress", args=[w.course.pk, w.assignment.pk])).content.decode()
    return page.split(f'id="{css_id}"')[1].split("</figure>")[0]


def bars(chart: str) -> dict[str, int]:
    return {label: int(count) for count, label in re.findall(r'data-count="(\d+)" data-label="([^"]*)"', chart)}


def test_the_histogram_counts_students_by_the_points_the_gradebook_gives(client, world):
    first, second = world.problems
    recorded(world.student, first, at=DUE - 2 * HOUR)
    recorded(world.student, second, at=DUE - HOUR)
    recorded(world.second, first, at=DUE + HOUR)  # late: half a point under the 0.5 multiplier
    recorded(world.second, second, verdict=Verdict.WRONG_ANSWER, at=DUE - HOUR)
    client.force_login(world.instructor)
    chart = figure(client, world, "score-histogram")
    assert bars(chart) == {"0": 1, "1": 0, "2": 1}
    assert "1 student with 0 to under 1 points" in chart and "1 student with all 2 points" in chart
    gradebook = client.get(reverse("course-gradebook", args=[world.course.pk])).content.decode()
    assert '<td class="num late">0.5 L</td>' in gradebook


def test_a_solve_shows_up_in_the_bar_of_its_time_in_the_viewers_zone(client, world):
    first, second = world.problems
    recorded(world.student, first, verdict=Verdict.WRONG_ANSWER, at=DUE - 3 * HOUR)
    recorded(world.student, first, at=DUE - 2 * HOUR)  # 15:00 UTC
    recorded(world.student, first, at=DUE - HOUR)  # a second accept of the same problem is no new solve
    recorded(world.student, second, at=DUE - 2 * HOUR + timedelta(minutes=5))
    recorded(world.second, first, at=DUE + HOUR)  # 18:00 UTC, after the due line
    client.force_login(world.instructor)
    chart = figure(client, world, "solves-over-time")
    counts = bars(chart)
    assert counts["15:00"] == 2 and counts["18:00"] == 1 and sum(counts.values()) == 3
    assert "2 solves from Mar 02 15:00 to Mar 02 15:10" in chart and 'class="due"' in chart
    choose_time_zone(world.instructor, "Europe/Paris")
    counts = bars(figure(client, world, "solves-over-time"))
    assert counts["16:00"] == 2 and counts["19:00"] == 1


def test_before_anyone_solves_the_pictures_say_so(client, world):
    recorded(world.student, world.problems[0], verdict=Verdict.WRONG_ANSWER, at=DUE - HOUR)
    client.force_login(world.ta)
    page = client.get(reverse("assignment-progress", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert "No solves yet." in page
    assert bars(page.split('id="score-histogram"')[1].split("</figure>")[0]) == {"0": 2, "1": 0, "2": 0}


def test_a_persons_time_zone_ends_with_their_page_and_leaderboard_windows_keep_the_sites(client, world):
    """A course page in Paris once left the zone active in the thread: the next leaderboard read on that thread
    looked up the week's standings by a Paris Monday and found none."""
    from django.utils import timezone

    from judge.standings.ranking import leaderboard
    from tests.boards import days_ago

    recorded(world.student, world.problems[0], at=days_ago(0))
    choose_time_zone(world.instructor, "Europe/Paris")
    client.force_login(world.instructor)
    page = client.get(reverse("assignment-progress", args=[world.course.pk, world.assignment.pk]))
    assert page.status_code == 200  # a page read in Paris (judge.courses.timezones.activate_for)
    assert timezone.get_current_timezone_name() == "UTC"
    with timezone.override("Pacific/Kiritimati"):  # UTC+14: its Monday and its 1st are a day off the site's
        assert [s.username for s in leaderboard(window="week")] == [world.student.username]
        assert [s.username for s in leaderboard(window="month")] == [world.student.username]
