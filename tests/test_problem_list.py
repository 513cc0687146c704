"""The problem list: marks, statistics, search and filters."""

from __future__ import annotations

import re

from engine.verdicts import Verdict
from judge.problems.models import Problem
from judge.submissions.models import Kind
from tests.students import graded


def row(page: str, slug: str) -> str:
    match = re.search(rf'<tr class="[^"]*" data-slug="{slug}">(.*?)</tr>', page, re.DOTALL)
    assert match, f"no row for {slug}"
    return match.group(1)


def shown_slugs(page: str) -> list[str]:
    return re.findall(r'data-slug="([a-z_]+)"', page)


def test_solved_and_attempted_marks_are_the_students_own(client, problems, student, second_student):
    graded(student, problems["prepend_class_token"], Verdict.WRONG_ANSWER, minute=1)
    graded(student, problems["prepend_class_token"], minute=2)
    graded(student, problems["add_positional_embedding"], Verdict.RUNTIME_ERROR)
    client.force_login(student)
    page = client.get("/").content.decode()
    assert 'class="mark solved"' in row(page, "prepend_class_token")
    assert 'class="mark attempted"' in row(page, "add_positional_embedding")
    assert 'class="mark ' not in row(page, "scaled_dot_product_attention")
    client.force_login(second_student)
    assert 'class="mark ' not in client.get("/").content.decode().split("<tbody>")[1]


def test_acceptance_rate_and_solver_count_come_from_graded_submits(client, problems, student, second_student):
    problem = problems["prepend_class_token"]
    graded(student, problem, Verdict.WRONG_ANSWER)
    graded(student, problem)
    graded(second_student, problem)
    graded(second_student, problem, Verdict.WRONG_ANSWER, kind=Kind.RUN)  # runs never count
    cells = re.findall(r'<td class="num">(.*?)</td>', row(client.get("/").content.decode(), "prepend_class_token"))
    assert [c.strip() for c in cells] == ["67%", "2"]


def test_search_matches_titles_summaries_and_tags(client, problems):
    assert shown_slugs(client.get("/?q=attention").content.decode()) == ["scaled_dot_product_attention"]
    assert shown_slugs(client.get("/?q=CLS+vector").content.decode()) == ["prepend_class_token"]
    assert "No problem matches" in client.get("/?q=convolution").content.decode()


def test_filters_by_tag_and_difficulty(client, problems):
    assert shown_slugs(client.get("/?tag=softmax").content.decode()) == ["scaled_dot_product_attention"]
    assert shown_slugs(client.get("/?difficulty=easy").content.decode()) == [
        "prepend_class_token",
        "add_positional_embedding",
    ]
    assert shown_slugs(client.get("/?difficulty=medium&tag=embeddings").content.decode()) == []


def test_unpublished_problems_are_not_listed_or_opened_by_students(client, problems, student):
    Problem.objects.filter(slug="scaled_dot_product_attention").update(published=False)
    client.force_login(student)
    assert "scaled_dot_product_attention" not in shown_slugs(client.get("/").content.decode())
    assert client.get("/problems/scaled_dot_product_attention/").status_code == 404
