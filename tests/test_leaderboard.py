"""The leaderboard: most problems solved first; on a tie, who got there first; ties share a rank."""

from __future__ import annotations

import re

import pytest

from engine.verdicts import Verdict
from judge.accounts.services import set_hidden_from_standings
from judge.authoring.lifecycle import unpublish
from judge.standings.ranking import leaderboard
from judge.submissions.models import Kind
from tests.boards import days_ago, quick_problem, recorded, regraded
from tests.students import graded


@pytest.fixture
def three(db):
    return [quick_problem(slug, order=i) for i, slug in enumerate(("alpha", "beta", "gamma"))]


def ranked(**kwargs) -> list[tuple[int, str, int]]:
    return [(s.rank, s.username, s.solved) for s in leaderboard(**kwargs)]


def test_more_solved_problems_rank_higher(three, student, second_student):
    graded(student, three[0], minute=1)
    graded(second_student, three[0], minute=2)
    graded(second_student, three[1], minute=3)
    assert ranked() == [(1, "grace", 2), (2, "ada", 1)]


def test_a_tie_is_listed_by_who_reached_the_count_first_and_shares_the_rank(three, student, second_student):
    graded(student, three[0], minute=1)
    graded(second_student, three[0], minute=2)
    graded(second_student, three[1], minute=3)
    graded(student, three[1], minute=9)
    graded(student, three[1], minute=0, kind=Kind.RUN)  # a run proves nothing
    assert ranked() == [(1, "grace", 2), (1, "ada", 2)]
    assert all(s.tied for s in leaderboard())


def test_solving_the_same_problem_again_does_not_count_twice(three, student, second_student):
    for minute in range(3):
        graded(student, three[0], minute=minute)
    graded(second_student, three[0], Verdict.WRONG_ANSWER)
    assert ranked() == [(1, "ada", 1)]


def test_a_rejudged_verdict_moves_the_standings_once(three, student):
    submission = recorded(student, three[0])
    assert ranked() == [(1, "ada", 1)]
    assert regraded(submission, Verdict.WRONG_ANSWER)
    assert ranked() == []
    assert regraded(submission, Verdict.ACCEPTED) and regraded(submission, Verdict.ACCEPTED)
    assert ranked() == [(1, "ada", 1)]


def test_unpublished_problems_do_not_count_and_count_again_when_published(three, student):
    graded(student, three[0])
    unpublish(three[0])
    assert ranked() == []
    from judge.standings.services import refresh_problem_standings

    type(three[0]).objects.filter(pk=three[0].pk).update(published=True)
    refresh_problem_standings(three[0].pk)
    assert ranked() == [(1, "ada", 1)]


def test_a_deleted_student_leaves_the_standings(three, student, second_student):
    graded(student, three[0], minute=1)
    graded(second_student, three[0], minute=2)
    student.delete()
    assert ranked() == [(1, "grace", 1)]


def test_a_window_counts_only_solves_first_reached_in_it(three, student, second_student):
    recorded(student, three[0], at=days_ago(400))
    recorded(student, three[1], at=days_ago(0))
    recorded(second_student, three[0], at=days_ago(0))
    recorded(second_student, three[1], at=days_ago(0))
    recorded(student, three[0], at=days_ago(0))  # solved long ago: not a solve of this week
    assert ranked(window="week") == [(1, "grace", 2), (2, "ada", 1)]
    assert ranked(window="month") == [(1, "grace", 2), (2, "ada", 1)]
    assert ranked(window="all") == [(1, "ada", 2), (1, "grace", 2)]  # ada reached two first


def test_the_page_links_each_user_to_their_profile(client, three, student):
    graded(student, three[0])
    page = client.get("/leaderboard/").content.decode()
    assert re.search(
        r'<td class="rank">1</td>\s*<td><a href="/accounts/users/ada/">ada</a></td>\s*'
        r'<td class="num">1</td>',
        page,
    )


def test_a_hidden_student_is_anonymous_and_cannot_be_found(client, three, student, second_student):
    graded(student, three[0])
    set_hidden_from_standings(student, True)
    client.force_login(second_student)
    page = client.get("/leaderboard/").content.decode()
    assert '<span class="anonymous">anonymous</span>' in page and "ada" not in page
    assert "No ranked student" in client.get("/leaderboard/?q=ad").content.decode()
    assert "keeps their progress private" in client.get("/accounts/users/ada/").content.decode()


def test_the_viewer_sees_their_rank_and_neighbours(client, three, django_user_model):
    users = [django_user_model.objects.create_user(f"s{i:03}") for i in range(120)]
    for i, user in enumerate(users):
        for problem in three[: 1 + i % 3]:
            graded(user, problem, minute=i)
    me = users[9]  # solved one problem, like 39 others; 80 solved more
    client.force_login(me)
    page = client.get("/leaderboard/").content.decode()
    assert re.search(r"You are <strong>#81</strong> \(tied\) of 120", page)
    near = page.split('class="leaderboard near-you"')[1].split("</table>")[0]
    assert re.findall(r'data-user="(\d+)"', near) == [str(u.pk) for u in (users[3], users[6], me, users[12], users[15])]
    mine = client.get("/leaderboard/?page=me").content.decode()  # 84th in the list: page 2 of 3
    assert '<span aria-current="page">2</span>' in mine
    assert f'class="me" data-user="{me.pk}"' in mine.split('id="standings"')[1]


def test_a_search_finds_students_by_name_with_their_rank(client, three, student, second_student):
    graded(student, three[0], minute=1)
    graded(second_student, three[0], minute=2)
    graded(second_student, three[1], minute=3)
    page = client.get("/leaderboard/?q=AD").content.decode()
    assert re.findall(r'<td class="rank">(\d+)</td>\s*<td><a href="/accounts/users/(\w+)/"', page) == [("2", "ada")]


def test_the_problems_tab_shows_first_solvers_and_solver_counts(client, three, student, second_student):
    graded(second_student, three[0], minute=1)
    graded(student, three[0], minute=5)
    graded(student, three[1], minute=6)
    page = client.get("/leaderboard/problems/").content.decode()
    rows = dict(re.findall(r'data-slug="(\w+)">(.*?)</tr>', page, re.DOTALL))
    assert '<td class="num">2</td>' in rows["alpha"] and ">grace</a>" in rows["alpha"]
    assert '<td class="num">1</td>' in rows["beta"] and ">ada</a>" in rows["beta"]
    assert "nobody yet" in rows["gamma"]


def test_a_page_out_of_range_shows_the_last_one(client, three, student):
    graded(student, three[0])
    assert client.get("/leaderboard/?page=999").status_code == 200
    assert client.get("/leaderboard/?page=x&window=nonsense").status_code == 200
