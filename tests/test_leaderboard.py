"""The leaderboard: most problems solved first; on a tie, who got there first."""

from __future__ import annotations

import re

from judge.grading.verdicts import Verdict
from judge.leaderboard.ranking import leaderboard
from judge.problems.models import Problem
from judge.submissions.models import Kind
from tests.students import graded


def test_more_solved_problems_rank_higher(problems, student, second_student):
    graded(student, problems["prepend_class_token"], minute=1)
    graded(second_student, problems["prepend_class_token"], minute=2)
    graded(second_student, problems["add_positional_embedding"], minute=3)
    assert [(s.username, s.solved) for s in leaderboard()] == [("grace", 2), ("ada", 1)]


def test_a_tie_goes_to_whoever_reached_the_count_first(problems, student, second_student):
    graded(student, problems["prepend_class_token"], minute=1)
    graded(second_student, problems["prepend_class_token"], minute=2)
    graded(second_student, problems["add_positional_embedding"], minute=3)
    graded(student, problems["add_positional_embedding"], minute=9)
    graded(student, problems["add_positional_embedding"], minute=0, kind=Kind.RUN)  # a run proves nothing
    assert [s.username for s in leaderboard()] == ["grace", "ada"]


def test_solving_the_same_problem_again_does_not_count_twice(problems, student, second_student):
    for minute in range(3):
        graded(student, problems["prepend_class_token"], minute=minute)
    graded(second_student, problems["prepend_class_token"], Verdict.WRONG_ANSWER)
    assert [(s.username, s.solved) for s in leaderboard()] == [("ada", 1)]


def test_unpublished_problems_do_not_count(problems, student):
    graded(student, problems["prepend_class_token"])
    Problem.objects.filter(slug="prepend_class_token").update(published=False)
    assert leaderboard() == []


def test_the_page_links_each_user_to_their_profile(client, problems, student):
    graded(student, problems["prepend_class_token"])
    page = client.get("/leaderboard/").content.decode()
    assert re.search(r'<td>1</td>\s*<td><a href="/accounts/users/ada/">ada</a></td>\s*<td>1</td>', page)
