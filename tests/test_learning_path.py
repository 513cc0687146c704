"""The learning path on the problem list: tracks as sections with the student's progress, and lock marks that
name the whole chain still to solve (issue 25 §2: the path was invisible, a locked problem named only its
direct prerequisites)."""

from __future__ import annotations

import re

import pytest

from judge.problems.models import Problem, TestSet
from judge.submissions.composition import chain_to_solve
from tests.students import graded

# A four-step chain in the first track: stack builds on block, which builds on norm and attention.
CHAIN = [
    ("norm", "Layer norm", []),
    ("attention", "Attention", []),
    ("block", "The block", ["norm", "attention"]),
    ("stack", "The stack", ["block"]),
]


@pytest.fixture
def path(db):
    problems = {}
    for order, (slug, title, builds_on) in enumerate(CHAIN + [("loose", "Loose end", [])]):
        problem = Problem.objects.create(
            slug=slug,
            title=title,
            difficulty="easy",
            statement_md="Do it.",
            starter_code="",
            solution_code="",
            spec={
                "function": slug,
                "params": ["x"],
                "builds_on": builds_on,
                "time_limit_s": 1.0,
                "memory_mb": 256,
                "rtol": 1e-9,
                "atol": 1e-12,
            },
            package_hash=slug,
            published=True,
            path_order=order,
            track="" if slug == "loose" else "pixels-to-attention",
        )
        problem.current_test_set = TestSet.objects.create(problem=problem, version=slug)
        problem.save()
        problems[slug] = problem
    return problems


def section(page: str, track: str) -> str:
    return re.search(rf'<section class="track" id="track-{track}".*?</section>', page, re.DOTALL).group(0)


def row(page: str, slug: str) -> str:
    return re.search(rf'<tr class="([^"]*)" data-slug="{slug}">(.*?)</tr>', page, re.DOTALL).group(0)


def test_the_chain_still_to_solve_includes_what_the_prerequisites_build_on():
    builds_on = {slug: deps for slug, _, deps in CHAIN}
    order = {slug: i for i, (slug, _, _) in enumerate(CHAIN)}
    assert chain_to_solve("stack", builds_on, set(), order) == ["norm", "attention", "block"]
    assert chain_to_solve("stack", builds_on, {"norm"}, order) == ["attention", "block"]
    assert chain_to_solve("stack", builds_on, {"block"}, order) == []  # block was open, so its chain is done


def test_tracks_are_sections_with_the_students_progress(client, path, student):
    graded(student, path["norm"])
    client.force_login(student)
    page = client.get("/").content.decode()
    first = section(page, "pixels-to-attention")
    assert "<h2>From pixels to attention</h2>" in first
    assert "Solved 1 of 4" in first and '<progress max="4" value="1"' in first
    assert re.findall(r'data-slug="([a-z]+)"', first) == ["norm", "attention", "block", "stack"]
    assert re.findall(r'data-slug="([a-z]+)"', section(page, "more")) == ["loose"]
    assert page.index('id="track-pixels-to-attention"') < page.index('id="track-more"')


def test_a_locked_problem_is_marked_and_names_the_whole_chain(client, path, student):
    graded(student, path["norm"])
    client.force_login(student)
    page = client.get("/").content.decode()
    stack = row(page, "stack")
    assert 'class="mark locked"' in stack and "locked" in stack.split('"')[1]
    assert "Locked: solve Attention → The block first" in stack  # not only its direct prerequisite
    assert 'class="mark locked"' not in row(page, "attention") and 'class="mark locked"' not in row(page, "norm")
    detail = client.get("/problems/stack/").content.decode()
    chain = re.search(r'<p class="chain-to-solve".*?</p>', detail, re.DOTALL).group(0)
    assert re.findall(r'data-slug="([a-z]+)">([^<]+)</a>', chain) == [
        ("attention", "Attention"),
        ("block", "The block"),
    ]


def test_staff_are_never_locked(client, path, django_user_model):
    staff = django_user_model.objects.create_user("author", password="x", is_staff=True)
    client.force_login(staff)
    page = client.get("/").content.decode()
    assert 'class="mark locked"' not in page and "Locked: solve" not in page
