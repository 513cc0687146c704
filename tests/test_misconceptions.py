"""A failing result that reproduces a known-wrong solution names the misconception and links to the theory."""

from __future__ import annotations

import subprocess
import sys

import pytest

from judge.grading import services as grading
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.conftest import PROBLEMS, REPO
from tests.helpers import package

SLUGS = ("prepend_class_token", "add_positional_embedding", "scaled_dot_product_attention")
WRONG = [(slug, wrong) for slug in SLUGS for wrong in package(slug).wrong]


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk: None)


def graded(student, problem, code: str) -> Submission:
    submission = intake.submit_solution(student, problem, code)
    assert grading.grade_submission(submission.pk)
    return Submission.objects.get(pk=submission.pk)


@pytest.mark.parametrize(("slug", "wrong"), WRONG, ids=[f"{s}/{w.file}" for s, w in WRONG])
def test_each_seeded_wrong_solution_is_told_its_misconception(slug, wrong, problems, student, no_enqueue):
    submission = graded(student, problems[slug], wrong.code)
    failing = [t for t in submission.results if t["status"] != "passed"]
    named = [t for t in failing if t["misconception"]]
    assert named, [(t["name"], t["status"]) for t in failing]
    assert named[0]["misconception"] == {"name": wrong.name, "explanation": wrong.explanation, "see": wrong.see}
    # Every test it fails on is explained by this mistake or another known one, never by a stranger's.
    assert {t["misconception"]["name"] for t in named} <= {w.name for w in package(slug).wrong}


def test_each_problem_has_at_least_three_named_misconceptions_with_a_link():
    for slug in SLUGS:
        wrong = package(slug).wrong
        assert len([w for w in wrong if w.name and w.explanation and w.see]) >= 3


def test_hidden_tests_name_the_misconception_without_revealing_data(problems, student, no_enqueue):
    code = (PROBLEMS / "prepend_class_token/wrong/appended.py").read_text()
    hidden = [t for t in graded(student, problems["prepend_class_token"], code).results if t["hidden"]]
    assert hidden and all(t["misconception"]["name"] == "Class token appended instead of prepended" for t in hidden)
    assert all(t["detail"] == {} and "expected" not in t["message"].replace("expected ones", "") for t in hidden)


def test_a_correct_solution_and_an_unknown_mistake_get_no_misconception(problems, student, no_enqueue):
    correct = graded(
        student, problems["prepend_class_token"], (PROBLEMS / "prepend_class_token/solution.py").read_text()
    )
    assert correct.verdict == "accepted" and not any(t["misconception"] for t in correct.results)
    novel = (
        "import numpy as np\n\ndef prepend_class_token(patches, cls_token):\n"
        "    b, n, d = patches.shape\n    return np.zeros((b, n + 1, d))\n"
    )
    result = graded(student, problems["prepend_class_token"], novel)
    assert result.verdict == "wrong_answer" and not any(t["misconception"] for t in result.results)


def test_the_submission_page_shows_the_misconception_and_links_to_the_theory(client, problems, student, no_enqueue):
    code = (PROBLEMS / "scaled_dot_product_attention/wrong/no_scaling.py").read_text()
    submission = graded(student, problems["scaled_dot_product_attention"], code)
    client.force_login(student)
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "Missing the 1/sqrt(d_k) scaling" in page
    assert 'href="/problems/scaled_dot_product_attention/#md-why-scale-by-the-square-root-of-dk"' in page


@pytest.mark.heavy  # the site in processes of its own
def test_manage_py_grade_prints_the_misconception():
    wrong = PROBLEMS / "scaled_dot_product_attention/wrong/softmax_over_queries.py"
    result = subprocess.run(
        [sys.executable, "manage.py", "grade", "scaled_dot_product_attention", str(wrong), "--sandbox", "process"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "misconception: Softmax taken over the query axis." in result.stdout
