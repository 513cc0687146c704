"""Editing tests makes a new version; a rejudge grades old submissions again against it, once each."""

from __future__ import annotations

import pytest

from judge.authoring.gate_runs import run_gate_now
from judge.authoring.models import RejudgeBatch
from judge.authoring.services import request_rejudge, run_rejudge_batch
from judge.grading import services as grading
from judge.problems.drafts import store_package_draft
from judge.problems.models import Problem
from judge.submissions.models import Status, Submission
from judge.submissions.services import intake
from tests.helpers import standalone_files
from tests.test_worker_end_to_end import start_worker, worker_env  # noqa: F401  (fixtures)

SLUG = "prepend_class_token"
# Right except when the embedding width is 1, which the trimmed tests below never try.
WRONG_FOR_WIDTH_ONE = """
import numpy as np

def prepend_class_token(patches, cls_token):
    b, n, d = patches.shape
    out = np.concatenate([np.broadcast_to(cls_token, (b, 1, d)), patches], axis=1)
    return out * 2 if d == 1 else out
"""


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


@pytest.fixture
def author(django_user_model):
    return django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)


@pytest.fixture
def old_tests(db):
    files = standalone_files(SLUG)
    trimmed = dict(
        files,
        **{
            "generator.py": files["generator.py"]
            .replace('    yield _case("width_one", True, *_random(rng, 2, 5, 1))\n', "")
            .replace("int(rng.integers(1, 65)))", "int(rng.integers(2, 65)))")
        },
    )
    assert run_gate_now(store_package_draft(SLUG, trimmed, imported=True)).passed
    return files


def graded(student, code: str) -> Submission:
    submission = intake.submit_solution(student, Problem.objects.get(slug=SLUG), code)
    grading.grade_submission(submission.pk)
    return Submission.objects.get(pk=submission.pk)


def test_rejudging_a_problem_grades_old_submissions_against_the_new_tests(old_tests, student, author, no_enqueue):
    from judge.standings.ranking import leaderboard
    from judge.submissions.queries import solved_and_attempted

    before = graded(student, WRONG_FOR_WIDTH_ONE)
    assert before.verdict == "accepted"
    assert before.problem_id in solved_and_attempted(student)[0]
    assert [(s.username, s.solved) for s in leaderboard()] == [(student.username, 1)]
    old_version = before.test_set_id
    assert run_gate_now(store_package_draft(SLUG, old_tests, imported=True)).passed  # the full tests: a new version
    problem = Problem.objects.get(slug=SLUG)
    assert problem.current_test_set_id != old_version

    batch = request_rejudge(author, "problem", problem)
    assert batch.total == 1
    assert run_rejudge_batch(batch.pk) == 1
    queued = Submission.objects.get(pk=before.pk)
    assert (queued.status, queued.test_set_id, queued.verdict) == (Status.QUEUED, problem.current_test_set_id, "")
    assert grading.grade_submission(before.pk)
    assert not grading.grade_submission(before.pk)  # the claim makes the second delivery a no-op
    after = Submission.objects.get(pk=before.pk)
    assert after.verdict == "wrong_answer"
    assert any(t["name"] == "width_one" and t["status"] == "wrong_value" for t in after.results)
    assert after.problem_id not in solved_and_attempted(student)[0]  # the solved mark follows
    assert leaderboard() == []


def test_a_submission_being_graded_is_not_reset_under_its_worker(old_tests, student, author, no_enqueue):
    submission = graded(student, WRONG_FOR_WIDTH_ONE)
    Submission.objects.filter(pk=submission.pk).update(status=Status.RUNNING)
    batch = RejudgeBatch.objects.create(
        requested_by=author, scope="submission", submission_ids=[submission.pk], total=1
    )
    assert run_rejudge_batch(batch.pk) == 0
    assert Submission.objects.get(pk=submission.pk).verdict == "accepted"


def test_the_rejudge_page_shows_progress(client, old_tests, student, author, no_enqueue, monkeypatch):
    from judge.authoring import services as authoring

    monkeypatch.setattr(authoring, "enqueue_on_commit", lambda *args, **kwargs: None)
    submission = graded(student, WRONG_FOR_WIDTH_ONE)
    client.force_login(author)
    response = client.post("/authoring/rejudge/", {"scope": "submission", "submission": submission.pk})
    batch = RejudgeBatch.objects.get()
    assert response["Location"] == f"/authoring/rejudge/{batch.pk}/"
    assert 'data-done="0" data-total="1"' in client.get(response["Location"]).content.decode()
    run_rejudge_batch(batch.pk)
    grading.grade_submission(submission.pk)
    page = client.get(response["Location"]).content.decode()
    assert 'data-done="1" data-total="1"' in page and "Finished." in page


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_problem_rejudge_runs_as_celery_work_and_the_verdict_follows_the_new_tests(
    problems, student, author, start_worker, tmp_path
):
    from judge.authoring.services import rejudge_progress
    from tests.test_worker_end_to_end import final, wait_for

    files = standalone_files(SLUG)
    trimmed = dict(
        files,
        **{
            "generator.py": files["generator.py"]
            .replace('    yield _case("width_one", True, *_random(rng, 2, 5, 1))\n', "")
            .replace("int(rng.integers(1, 65)))", "int(rng.integers(2, 65)))")
        },
    )
    assert run_gate_now(store_package_draft(SLUG, trimmed, imported=True)).passed
    start_worker()
    submission = intake.submit_solution(student, Problem.objects.get(slug=SLUG), WRONG_FOR_WIDTH_ONE)
    assert (
        wait_for(lambda: final(submission.pk), 60, "the first verdict", tmp_path / "worker.log").verdict == "accepted"
    )

    assert run_gate_now(store_package_draft(SLUG, files, imported=True)).passed
    batch = request_rejudge(author, "problem", Problem.objects.get(slug=SLUG))
    wait_for(
        lambda: rejudge_progress(RejudgeBatch.objects.get(pk=batch.pk))["finished"],
        60,
        "the rejudge to finish",
        tmp_path / "worker.log",
    )
    after = Submission.objects.get(pk=submission.pk)
    assert (after.verdict, after.test_set_id) == ("wrong_answer", Problem.objects.get(slug=SLUG).current_test_set_id)
