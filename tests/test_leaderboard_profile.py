"""The profile: solved count, rank, activity over time, solves by tag, and the standings privacy setting."""

from __future__ import annotations

import re

import pytest

from engine.verdicts import Verdict
from judge.accounts.services import is_hidden_from_standings
from tests.boards import days_ago, quick_problem, recorded


@pytest.fixture
def tagged(db):
    return [
        quick_problem("alpha", ("attention", "softmax"), 0),
        quick_problem("beta", ("attention",), 1),
        quick_problem("gamma", ("embeddings",), 2),
    ]


def test_the_profile_shows_solved_count_rank_and_solves_by_tag(client, tagged, student, second_student):
    recorded(second_student, tagged[0])
    recorded(second_student, tagged[1])
    recorded(student, tagged[0])
    recorded(student, tagged[2], Verdict.WRONG_ANSWER)
    page = client.get("/accounts/users/ada/").content.decode()
    assert '<strong id="solved-count">1</strong> problem solved' in page
    assert 'rank <strong id="rank">#2</strong> of 2' in page
    tags = dict(re.findall(r'data-tag="(\w+)">.*?<span class="count">(\d+ / \d+)</span>', page))
    assert tags == {"softmax": "1 / 1", "attention": "1 / 2", "embeddings": "0 / 1"}


def test_the_activity_calendar_counts_submits_per_day(client, tagged, student):
    recorded(student, tagged[0], Verdict.WRONG_ANSWER, at=days_ago(3))
    recorded(student, tagged[0], at=days_ago(3))
    recorded(student, tagged[1], at=days_ago(40))
    recorded(student, tagged[1], at=days_ago(500))  # more than a year ago: not in the calendar
    page = client.get("/accounts/users/ada/").content.decode()
    days = dict(re.findall(r'data-day="([\d-]+)" data-submits="(\d+)"', page))
    assert days[days_ago(3).date().isoformat()] == "2" and days[days_ago(40).date().isoformat()] == "1"
    assert sum(map(int, days.values())) == 3
    assert "3 submissions in the last year, on 2 days." in page


def test_only_the_student_sees_their_unsolved_attempts(client, tagged, student, second_student):
    recorded(student, tagged[2], Verdict.TIME_LIMIT_EXCEEDED)
    recorded(student, tagged[2], Verdict.WRONG_ANSWER)
    client.force_login(student)
    own = client.get("/accounts/users/ada/").content.decode()
    assert re.search(r"Gamma</a></td><td class=\"num\">2</td>\s*<td>Wrong answer</td>", own)
    client.force_login(second_student)
    assert "Gamma" not in client.get("/accounts/users/ada/").content.decode()


def test_a_student_hides_their_name_from_the_standings_and_shows_it_again(client, tagged, student):
    recorded(student, tagged[0])
    client.force_login(student)
    client.post("/accounts/privacy/", {"hide": "on"})
    assert is_hidden_from_standings(student)
    own = client.get("/leaderboard/").content.decode()
    assert "anonymous to others" in own  # the student still sees their own row
    client.logout()
    assert "anonymous" in client.get("/leaderboard/").content.decode()
    client.force_login(student)
    client.post("/accounts/privacy/", {})
    assert not is_hidden_from_standings(student)
    client.logout()
    assert 'href="/accounts/users/ada/">ada</a>' in client.get("/leaderboard/").content.decode()


def test_the_privacy_setting_needs_a_logged_in_post(client, student):
    assert client.post("/accounts/privacy/", {"hide": "on"}).status_code == 302  # to the login page
    client.force_login(student)
    assert client.get("/accounts/privacy/").status_code == 405
    assert not is_hidden_from_standings(student)
