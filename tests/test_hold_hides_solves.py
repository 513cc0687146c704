"""A hold holds: until an assignment's grades are released for a student, their held accepted Submit opens no
problem that builds on it and does not count on their public profile, for them or anyone reading it; once
released (staff press Release, or their own due time passes) both catch up with nothing done by hand."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses.models import Override, Release
from judge.courses.release import release_assignment
from judge.problems.models import Problem
from judge.standings import ranking
from judge.standings.models import Period, UserProblemState
from judge.submissions import speed
from judge.submissions.composition import locked_reason
from judge.submissions.models import Submission
from judge.tokens.services import create_token
from tests.boards import quick_problem, regraded
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


def api_client(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {create_token(user, 'cli', ['read'])[1]}")


def board_names(client, url: str = "/leaderboard/") -> list[str]:
    """The names in the page's ranking table (the menu links the reader's own profile)."""
    page = client.get(url).content.decode()
    table = page[page.index("<table") : page.index("</table>")]
    return re.findall(r'href="/accounts/users/(\w+)/"', table)


def test_the_site_leaderboard_and_first_solvers_count_a_held_solve_only_after_release(client, held, django_user_model):
    w = held
    graded(w.student, w.problems[0], Verdict.ACCEPTED, at=DUE - timedelta(days=2))  # held, and first
    outsider = django_user_model.objects.create_user("olga", "olga@example.org", "x")
    graded(outsider, w.problems[0], Verdict.ACCEPTED)

    for reader in (w.student, w.second, outsider):  # the student, a classmate, another course's student
        client.force_login(reader)
        assert "ada" not in board_names(client) and "olga" in board_names(client)
        firsts = board_names(client, "/leaderboard/problems/")
        assert firsts == ["olga"]
        api = api_client(reader).get("/api/v1/leaderboard").json()
        assert [r["name"] for r in api["rows"]] == ["olga"] and api["total"] == 1
    assert api_client(w.student).get("/api/v1/leaderboard").json()["me"] is None
    client.force_login(w.student)
    assert "ada" not in board_names(client, reverse("course-leaderboard", args=[w.course.pk]))

    release_assignment(w.assignment, w.instructor)
    client.force_login(w.second)
    assert board_names(client)[:2] == ["ada", "olga"]
    assert board_names(client, "/leaderboard/problems/") == ["ada"]
    assert "ada" in board_names(client, reverse("course-leaderboard", args=[w.course.pk]))


def test_every_page_of_the_board_puts_held_students_where_their_shown_solves_put_them(held, django_user_model):
    """Many students, two of them held on one problem each: every page, position and neighbourhood of the board
    is the order their shown solves give, as if the held solves were not there."""
    w = held
    extra = quick_problem("third_step", order=3)
    first, second = w.problems
    others = [django_user_model.objects.create_user(f"u{i}", f"u{i}@example.org", "x") for i in range(9)]
    for i, user in enumerate(others):
        for problem in (first, second, extra)[: i % 4]:
            graded(user, problem, Verdict.ACCEPTED, at=DUE - timedelta(days=1, hours=i))
    for user, hour in ((w.student, 3), (w.second, 30)):
        graded(user, first, Verdict.ACCEPTED, at=DUE - timedelta(days=2, hours=hour))  # held
        graded(user, extra, Verdict.ACCEPTED, at=DUE - timedelta(days=20, hours=hour))  # practice: shown
    held_pairs = {(w.student.pk, first.pk), (w.second.pk, first.pk)}

    for window in (Period.ALL, Period.WEEK):
        starts_at = ranking.window_start(window)
        solves: dict[int, list] = {}
        for user_id, problem_id, at in UserProblemState.objects.filter(first_accepted_at__isnull=False).values_list(
            "user_id", "problem_id", "first_accepted_at"
        ):
            if (user_id, problem_id) not in held_pairs and (starts_at is None or at >= starts_at):
                solves.setdefault(user_id, []).append(at)
        expected = sorted(((u, len(a), max(a)) for u, a in solves.items()), key=lambda r: (-r[1], r[2], r[0]))
        board = ranking.board(window)
        assert board.total == len(expected)
        for offset in range(len(expected) + 1):
            for limit in (1, 2, 3, 5):
                assert ranking.page_rows(window, offset, limit, board) == expected[offset : offset + limit]
        for place, (user_id, solved, at) in enumerate(expected):
            standing = ranking.Standing(board.rank(solved), "", solved, at, user_id)
            assert ranking.position_of(standing, window, board) == place + 1
            assert ranking.neighbour_rows(standing, window, 2, board) == expected[max(0, place - 2) : place + 3]
            assert board.rank(solved) == 1 + sum(r[1] > solved for r in expected)


def test_the_board_follows_each_students_own_due_time_and_a_rejudge(client, held):
    w = held
    w.assignment.release = Release.AFTER_DUE
    w.assignment.save()
    Override.objects.create(
        assignment=w.assignment, user=w.second, due_at=DUE + timedelta(days=1), closes_at=DUE + timedelta(days=2)
    )
    theirs = graded(w.student, w.problems[0], Verdict.ACCEPTED)
    graded(w.second, w.problems[0], Verdict.ACCEPTED)
    assert regraded(theirs, Verdict.WRONG_ANSWER) and regraded(theirs, Verdict.ACCEPTED)  # a rejudge while held
    client.force_login(w.stranger)
    assert board_names(client) == []

    w.clock.move_to(DUE + timedelta(minutes=1))  # ada's due time; grace has an extension
    assert board_names(client) == ["ada"]
    assert regraded(theirs, Verdict.WRONG_ANSWER)  # a rejudge after release takes the solve away
    assert board_names(client) == []
    w.clock.move_to(DUE + timedelta(days=1, minutes=1))
    assert board_names(client) == ["grace"]


def test_the_speed_ranking_leaves_a_held_submit_out_until_release(held, django_user_model):
    w = held
    theirs = graded(w.student, w.problems[0], Verdict.ACCEPTED)
    outsider = django_user_model.objects.create_user("olga", "olga@example.org", "x")
    practice = graded(outsider, w.problems[0], Verdict.ACCEPTED)
    Submission.objects.filter(pk__in=[theirs.pk, practice.pk]).update(speed={"ratio": 1.5, "vectorised": True})
    assert [r.username for r in speed.ranking(w.problems[0])] == ["olga"]
    release_assignment(w.assignment, w.instructor)
    assert [r.username for r in speed.ranking(w.problems[0])] == ["ada", "olga"]
