"""Workers claiming at the same instant: a student's submissions taken by several workers at once are graded one
at a time (the cap), whether the claim is the one round trip a worker makes or the ORM's path."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from judge.submissions.models import Status, Submission
from judge.submissions.services import claims, intake

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "prepend_class_token"
WORKERS, ROUNDS = 4, 5


@pytest.fixture
def sent(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None, priority=None: True)


def claim_at_once(submissions: list[Submission], user_id: int | None) -> list:
    """Each submission claimed by a thread of its own (its own database connection), all at the same instant."""
    start, tokens = threading.Barrier(len(submissions)), [None] * len(submissions)

    def claim(i: int) -> None:
        try:
            start.wait()
            tokens[i] = claims.claim_submission(submissions[i].pk, capped=True, user_id=user_id)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(len(submissions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tokens


@pytest.mark.parametrize("worker_knows_the_student", [True, False])
def test_four_workers_claiming_one_students_submissions_at_once_take_one(
    problems, student, sent, worker_knows_the_student
):
    for _ in range(ROUNDS):
        submissions = [intake.submit_solution(student, problems[SLUG], "x = 1") for _ in range(WORKERS)]
        tokens = claim_at_once(submissions, student.pk if worker_knows_the_student else None)
        assert sum(token is not None for token in tokens) == 1
        assert Submission.objects.filter(user=student, status=Status.RUNNING).count() == 1
        Submission.objects.filter(user=student).update(status=Status.DONE, claim=None)
