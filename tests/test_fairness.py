"""One student's many submissions never hold up another's; Run goes before Submit."""

from __future__ import annotations

import itertools

import pytest

from engine.grading import GradeReport
from judge.grading import recording
from judge.grading import services as grading
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.services import claims, intake
from tests.conftest import read_solution
from tests.test_worker_end_to_end import final, start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

SLUG = "prepend_class_token"
# Correct, but the first test it meets takes 1 s: long enough to see who waits for whom.
SLOW_ONCE = """
import time
import numpy as np

_slept = []

def prepend_class_token(patches, cls_token):
    if not _slept:
        time.sleep(1.0)
        _slept.append(1)
    tiled = np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2]))
    return np.concatenate([tiled, patches], axis=1)
"""


@pytest.fixture
def sent(monkeypatch):
    """What would go to the broker: (submission id, lane)."""
    messages = []
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: messages.append(pk))
    return messages


def test_a_busy_students_next_submission_waits_in_the_database_not_in_a_worker(problems, student, sent):
    first = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    second = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    token = claims.claim_submission(first.pk, capped=True)
    assert token is not None
    sent.clear()

    assert grading.grade_submission(second.pk) is False  # the worker slot is free again at once
    parked = Submission.objects.get(pk=second.pk)
    assert (parked.status, parked.enqueued_at, parked.attempts) == (Status.QUEUED, None, 0)
    assert sent == []

    assert recording.record_verdict(first.pk, token, GradeReport("accepted"))
    assert claims.release_parked(student.pk) == [second.pk]
    assert sent == [second.pk]  # sent again, to the back of its queue
    assert grading.grade_submission(second.pk) is True


def test_another_students_submission_is_graded_while_the_first_student_is_at_the_cap(
    problems, student, second_student, sent
):
    busy = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    waiting = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    other = intake.submit_solution(second_student, problems[SLUG], read_solution(SLUG))
    assert claims.claim_submission(busy.pk, capped=True)
    assert grading.grade_submission(waiting.pk) is False
    assert grading.grade_submission(other.pk) is True
    assert Submission.objects.get(pk=other.pk).verdict == "accepted"


def test_the_cap_is_a_setting(problems, student, sent, settings):
    settings.MAX_RUNNING_PER_USER = 2
    first, second, third = (intake.submit_solution(student, problems[SLUG], "x = 1") for _ in range(3))
    assert claims.claim_submission(first.pk, capped=True)
    assert claims.claim_submission(second.pk, capped=True)
    assert claims.claim_submission(third.pk, capped=True) is None


def test_a_staff_rejudge_is_not_held_by_the_cap(problems, student, sent):
    busy = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    rejudged = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    assert claims.claim_submission(busy.pk, capped=True)
    assert grading.grade_submission(rejudged.pk, capped=False) is True


def test_the_sweep_releases_a_parked_submission_whose_release_was_missed(problems, student, sent):
    parked = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    Submission.objects.filter(pk=parked.pk).update(enqueued_at=None)  # parked; its student has nothing running
    claims.recover_stalled_submissions()
    assert sent == [parked.pk]
    assert Submission.objects.get(pk=parked.pk).enqueued_at is not None


def overlaps(a: Submission, b: Submission) -> bool:
    return a.started_at < b.finished_at and b.started_at < a.finished_at


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_with_two_worker_slots_a_flood_takes_one_and_another_student_gets_the_other(
    problems, student, second_student, start_worker, tmp_path
):
    start_worker("-Q", "maintenance,run,submit,rejudge", "--beat", "--concurrency=2")
    wait_for(lambda: b"ready" in (tmp_path / "worker.log").read_bytes(), 60, "the worker", tmp_path / "worker.log")
    flood = [intake.submit_solution(student, problems[SLUG], SLOW_ONCE) for _ in range(4)]
    victim = intake.submit_solution(second_student, problems[SLUG], read_solution(SLUG))
    wait_for(lambda: all(final(s.pk) for s in [*flood, victim]), 90, "every verdict", tmp_path / "worker.log")
    flood = sorted(Submission.objects.filter(pk__in=[s.pk for s in flood]), key=lambda s: s.started_at)
    victim = Submission.objects.get(pk=victim.pk)
    assert all(s.verdict == "accepted" for s in [*flood, victim])
    assert not any(overlaps(a, b) for a, b in itertools.pairwise(flood))  # never two of the flood at once
    assert victim.finished_at < flood[1].started_at  # the victim did not wait behind the flood
    assert (victim.finished_at - victim.created_at).total_seconds() < 3.0


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_is_graded_before_submits_that_were_queued_earlier(
    problems, student, second_student, django_user_model, start_worker, tmp_path
):
    classmates = [django_user_model.objects.create_user(f"classmate{i}") for i in range(4)]
    start_worker("-Q", "maintenance,run,submit,rejudge", "--beat", "--concurrency=1")
    wait_for(lambda: b"ready" in (tmp_path / "worker.log").read_bytes(), 60, "the worker", tmp_path / "worker.log")
    submits = [intake.submit_solution(user, problems[SLUG], SLOW_ONCE) for user in classmates]
    wait_for(lambda: Submission.objects.filter(status=Status.RUNNING).exists(), 30, "the first submit to start")
    run = intake.submit_solution(second_student, problems[SLUG], read_solution(SLUG), kind=Kind.RUN)
    wait_for(lambda: all(final(s.pk) for s in [*submits, run]), 90, "every verdict", tmp_path / "worker.log")
    run = Submission.objects.get(pk=run.pk)
    started = sorted(Submission.objects.filter(pk__in=[s.pk for s in submits]).values_list("started_at", flat=True))
    assert run.verdict == "accepted"
    assert run.started_at < started[1]  # next after the submit that was already running


def test_a_students_parked_submission_is_not_overtaken_by_their_own_later_one(problems, student, sent):
    busy = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    older = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    assert claims.claim_submission(busy.pk, capped=True)
    assert grading.grade_submission(older.pk) is False  # parked: its student is at the cap
    Submission.objects.filter(pk=busy.pk).update(status=Status.DONE)  # its slot frees, the release not yet sent
    newer = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    sent.clear()
    assert grading.grade_submission(newer.pk) is False  # its message came first, but the older one goes first
    assert sent == [older.pk]
    assert Submission.objects.get(pk=newer.pk).enqueued_at is None  # parked behind it
    assert grading.grade_submission(older.pk) is True
