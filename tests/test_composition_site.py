"""A problem built on earlier ones: it imports the student's own accepted code, and stays locked until it exists."""

from __future__ import annotations

import pytest
from django.urls import reverse

from judge.authoring.gate_runs import run_gate_now
from judge.authoring.sync import sync_problems
from judge.display.results import error_line
from judge.grading import services as grading
from judge.problems.models import Problem
from judge.submissions.composition import solved_solutions
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.composition import DOUBLE, QUADRUPLE_WITH_SOLVED, write_packages
from tests.students import graded

TRIPLE = "def double_it(x):\n    return 3.0 * x\n"  # accepted here only because graded() says so


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


@pytest.fixture
def pair(db, tmp_path, process_sandbox):
    write_packages(tmp_path)
    outcomes = sync_problems(tmp_path, sandbox=process_sandbox)
    assert [(o.slug, o.action) for o in outcomes] == [("double_it", "created"), ("quadruple_it", "created")], outcomes
    return {p.slug: p for p in Problem.objects.all()}


def submit_quadruple(user, pair) -> Submission:
    submission = intake.submit_solution(user, pair["quadruple_it"], QUADRUPLE_WITH_SOLVED)
    grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    return submission


def test_a_submission_imports_the_students_own_latest_accepted_solution(pair, student, no_enqueue):
    graded(student, pair["double_it"], code=TRIPLE, minute=0)
    latest = graded(student, pair["double_it"], code=DOUBLE, minute=5)
    graded(student, pair["double_it"], verdict="wrong_answer", code=TRIPLE, minute=9)  # not accepted: not used
    submission = submit_quadruple(student, pair)
    assert submission.verdict == "accepted", submission.message
    assert submission.sandbox["solved"] == [["double_it", latest.pk]]


def test_what_an_imported_solution_imports_is_loaded_before_it(pair, student):
    graded(student, pair["double_it"], code=DOUBLE)
    quadruple = graded(student, pair["quadruple_it"], code=QUADRUPLE_WITH_SOLVED)
    octuple = Problem(slug="octuple_it", spec={"builds_on": ["quadruple_it"]})
    modules = solved_solutions(student, octuple)
    assert list(modules) == ["double_it", "quadruple_it"] and modules["quadruple_it"].pk == quadruple.pk


def test_another_students_accepted_code_is_never_used(pair, student, second_student, no_enqueue):
    graded(student, pair["double_it"], code=DOUBLE)
    graded(second_student, pair["double_it"], code=TRIPLE, minute=10)  # the newest accepted of anyone
    assert submit_quadruple(student, pair).verdict == "accepted"
    theirs = submit_quadruple(second_student, pair)
    assert theirs.verdict == "wrong_answer"  # their own 3x, twice: 9x


def test_the_problem_is_locked_until_what_it_builds_on_is_solved(pair, student, client, no_enqueue):
    client.force_login(student)
    with pytest.raises(
        intake.SubmissionRejected,
        match="quadruple_it builds on your own accepted solution of double_it: solve it first",
    ):
        intake.submit_solution(student, pair["quadruple_it"], QUADRUPLE_WITH_SOLVED)
    page = client.get("/problems/quadruple_it/").content.decode()
    assert "Locked: solve what it builds on first" in page
    assert '<a href="/problems/double_it/">double_it</a> (Double it): not solved yet' in page
    assert 'id="submit-button" class="primary" disabled' in page
    response = client.post(reverse("submit", args=["quadruple_it"]), {"code": QUADRUPLE_WITH_SOLVED, "kind": "run"})
    assert response.status_code == 400 and "solve it first" in response.content.decode()
    assert not Submission.objects.filter(problem=pair["quadruple_it"]).exists()

    solution = graded(student, pair["double_it"], code=DOUBLE)
    page = client.get("/problems/quadruple_it/").content.decode()
    assert "Locked:" not in page and "Built from your own code" in page and '"primary" disabled' not in page
    assert (
        f'your accepted solution <a href="/submissions/{solution.pk}/">#{solution.pk}</a> of\n'
        '        <a href="/problems/double_it/">double_it</a>, submitted 5 Jan 2026, 09:00'
    ) in page


def test_staff_can_always_open_and_try_it(pair, django_user_model, no_enqueue):
    staff = django_user_model.objects.create_user("teacher", password="x" * 20, is_staff=True)
    assert intake.submit_solution(staff, pair["quadruple_it"], QUADRUPLE_WITH_SOLVED).pk


def test_the_gate_fails_clearly_when_what_it_builds_on_is_not_published(pair):
    Problem.objects.filter(slug="double_it").update(published=False)
    run = run_gate_now(pair["quadruple_it"])
    assert run.passed is False
    assert run.error.startswith("this problem builds on double_it, which is not published")


def test_the_editor_marks_the_students_own_line_not_one_of_the_imported_solution():
    frames = [
        {"line": 4, "function": "quadruple_it", "text": ""},
        {"line": 9, "function": "double_it", "text": "", "module": "double_it"},
    ]
    submission = Submission(verdict="runtime_error", results=[{"name": "t", "hidden": False, "traceback": frames}])
    assert error_line(submission) == 4


def test_the_gate_refuses_to_build_on_a_problem_whose_function_is_not_named_as_its_slug(pair):
    double = pair["double_it"]
    Problem.objects.filter(pk=double.pk).update(spec=double.spec | {"function": "twice"})
    run = run_gate_now(pair["quadruple_it"])
    assert run.error.startswith("this problem builds on double_it (its function is 'twice')")
