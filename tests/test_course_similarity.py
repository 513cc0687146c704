"""The similarity check ranks a planted copy first, marks the matching regions, leaves the starter code out, and
is shown to the course's instructors only."""

from __future__ import annotations

from django.urls import reverse

from judge.problems.models import Problem
from tests.boards import recorded
from tests.courses import world  # noqa: F401 (fixture)

STARTER = "import numpy as np\n\n\ndef attention(q, k, v):\n    raise NotImplementedError\n"
ORIGINAL = '''import numpy as np


def attention(q, k, v):
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v  # </code><script>alert(1)</script>
'''
COPY = ORIGINAL.replace("scores", "logits").replace("weights", "probs")  # renamed, otherwise the same
OWN = '''import numpy as np


def attention(q, k, v):
    d = q.shape[-1]
    logits = np.einsum("...id,...jd->...ij", q, k) / d ** 0.5
    logits -= logits.max(-1)[..., None]
    p = np.exp(logits)
    p /= p.sum(-1)[..., None]
    return np.einsum("...ij,...jd->...id", p, v)
'''


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
    page = client.get(reverse("assignment-similarity", args=[world.course.pk, world.assignment.pk]),
                      {"problem": problem.slug, "run": "1"}).content.decode()
    assert "3 submissions compared in" in page
    first_pair = page.split('<li class="pair">')[1]
    assert "<h2>ada and grace: 100%</h2>" in first_pair
    assert '<mark class="match">' in first_pair
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_only_the_courses_instructors_see_it(client, world):
    url = reverse("assignment-similarity", args=[world.course.pk, world.assignment.pk])
    for persona, code in (("instructor", 200), ("ta", 403), ("student", 403), ("stranger", 404),
                          ("other_instructor", 404)):
        client.force_login(getattr(world, persona))
        assert client.get(url).status_code == code, persona
