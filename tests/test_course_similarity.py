"""The similarity check ranks a planted copy (renamed or reordered) above independent solutions, shows why (the
shared unusual lines, marked), never counts the starter code, the reference solution or what most of the class
wrote, says when a problem is too short to judge, and is shown to the course's instructors only."""

from __future__ import annotations

from django.urls import reverse

from judge.courses.similarity import compare
from judge.problems.models import Problem
from tests.boards import recorded
from tests.courses import world  # noqa: F401 (fixture)

STARTER = "import numpy as np\n\n\ndef attention(q, k, v):\n    raise NotImplementedError\n"
ORIGINAL = """import numpy as np


def attention(q, k, v):
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v  # </code><script>alert(1)</script>
"""
COPY = ORIGINAL.replace("scores", "logits").replace("weights", "probs")  # renamed, otherwise the same
OWN = """import numpy as np


def attention(q, k, v):
    d = q.shape[-1]
    logits = np.einsum("...id,...jd->...ij", q, k) / d ** 0.5
    logits -= logits.max(-1)[..., None]
    p = np.exp(logits)
    p /= p.sum(-1)[..., None]
    return np.einsum("...ij,...jd->...id", p, v)
"""


def submit(user, problem, code):
    submission = recorded(user, problem)
    type(submission).objects.filter(pk=submission.pk).update(code=code)


def test_a_planted_copy_is_ranked_first_with_its_matches_marked(client, world, django_user_model):
    problem = world.problems[0]
    Problem.objects.filter(pk=problem.pk).update(starter_code=STARTER)
    third = django_user_model.objects.create_user("third")
    world.course.memberships.create(user=third, role="student")
    submit(world.student, problem, OWN)
    submit(world.student, problem, ORIGINAL)  # ada's final submission
    submit(world.second, problem, COPY)
    submit(third, problem, OWN)
    client.force_login(world.instructor)
    page = client.get(
        reverse("assignment-similarity", args=[world.course.pk, world.assignment.pk]),
        {"problem": problem.slug, "run": "1"},
    ).content.decode()
    assert "3 submissions compared in" in page
    first_pair = page.split('<li class="pair">')[1]
    assert "<h2>ada and grace: 100%</h2>" in first_pair
    assert '<mark class="match">' in first_pair
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


REORDERED = """import numpy as np


def attention(q, k, v):
    # my own work
    a = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    a = a - a.max(axis=-1, keepdims=True)
    b = np.exp(a)
    b = b / b.sum(axis=-1, keepdims=True)
    return b @ v
"""
THIRD_WAY = """import math

import numpy as np


def attention(q, k, v):
    out = np.empty(q.shape[:-1] + v.shape[-1:])
    for index in np.ndindex(q.shape[:-1]):
        row = (k[index[:-1]] @ q[index]) / math.sqrt(q.shape[-1])
        row = np.exp(row - row.max())
        out[index] = (row / row.sum()) @ v[index[:-1]]
    return out
"""


def run(client, w, problem) -> str:
    client.force_login(w.instructor)
    return client.get(
        reverse("assignment-similarity", args=[w.course.pk, w.assignment.pk]), {"problem": problem.slug, "run": "1"}
    ).content.decode()


def students(w, django_user_model, names):
    made = [django_user_model.objects.create_user(name) for name in names]
    for user in made:
        w.course.memberships.create(user=user, role="student")
    return made


def test_independent_solutions_rank_below_a_reordered_copy_and_the_page_says_why(client, world, django_user_model):
    problem = world.problems[0]
    Problem.objects.filter(pk=problem.pk).update(starter_code=STARTER)
    third, fourth = students(world, django_user_model, ["third", "fourth"])
    submit(world.student, problem, ORIGINAL)
    submit(world.second, problem, OWN)
    submit(third, problem, THIRD_WAY)
    submit(fourth, problem, REORDERED)  # ada's, renamed, with a comment
    pairs = run(client, world, problem).split('<li class="pair">')[1:]
    assert "<h2>ada and fourth: 100%</h2>" in pairs[0]
    assert "Why: they share 4 unusual statements, marked below" in pairs[0]
    assert '<mark class="match">    a = a - a.max(axis=-1, keepdims=True)</mark>' in pairs[0]
    assert '<mark class="match">    scores = scores - scores.max(axis=-1, keepdims=True)</mark>' in pairs[0]
    assert "\n    b = np.exp(a)\n" in pairs[0]  # grace wrote it too: not unusual, not marked
    assert all("grace" not in pair or "third" not in pair for pair in pairs)  # the two independent ones share nothing


def test_the_reference_solutions_lines_never_count_and_a_problem_too_short_is_named(client, world, django_user_model):
    problem = world.problems[0]
    Problem.objects.filter(pk=problem.pk).update(starter_code=STARTER, solution_code=ORIGINAL)
    students(world, django_user_model, ["third"])
    submit(world.student, problem, ORIGINAL)
    submit(world.second, problem, COPY)  # the reference, renamed: nothing of their own
    page = run(client, world, problem)
    assert '<li class="pair">' not in page
    assert "This problem is too short to judge" in page
    assert "Too little of their own to compare (fewer than 25 tokens of unusual lines): ada, grace." in page


def test_a_line_half_the_class_wrote_is_not_unusual():
    shared = "    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
    rare = "    e = np.where(np.isfinite(e), e, 0.0) / np.maximum(e.sum(axis=-1, keepdims=True), 1e-300)\n"
    codes = {
        f"s{n}": f"def f(x):\n{shared}    return e * {n} + np.arange({n}) ** 2 - np.ones(({n}, {n})).sum()\n"
        for n in range(6)
    }
    codes["s1"] += f"def g(x):\n{rare}"
    codes["s2"] += f"def g(x):\n{rare}"
    report = compare(codes, [])
    assert [(p.first, p.second) for p in report.pairs] == [("s1", "s2")]  # the softmax line all six wrote joins none


def test_lines_that_people_outside_the_class_wrote_weigh_less(client, world, django_user_model):
    problem = world.problems[0]
    Problem.objects.filter(pk=problem.pk).update(starter_code=STARTER)
    students(world, django_user_model, ["third"])
    submit(world.student, problem, ORIGINAL)
    submit(world.second, problem, COPY)
    before = run(client, world, problem).split('<li class="pair">')[1]
    assert "<h2>ada and grace: 100%</h2>" in before
    for n in range(4):  # elsewhere on the site, four people solved it the way ada did, each their own names
        outsider = django_user_model.objects.create_user(f"outsider{n}")
        submit(outsider, problem, ORIGINAL.replace("scores", f"s{n}").replace("weights", f"w{n}"))
    page = run(client, world, problem)
    assert '<li class="pair">' not in page  # what many independent people write is nobody's to copy
    assert "Too little of their own to compare (fewer than 25 tokens of unusual lines): ada, grace." in page


def test_only_the_courses_instructors_see_it(client, world):
    url = reverse("assignment-similarity", args=[world.course.pk, world.assignment.pk])
    for persona, code in (
        ("instructor", 200),
        ("ta", 403),
        ("student", 403),
        ("stranger", 404),
        ("other_instructor", 404),
    ):
        client.force_login(getattr(world, persona))
        assert client.get(url).status_code == code, persona
