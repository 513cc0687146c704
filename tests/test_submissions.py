"""Accepting, claiming and recording submissions: the database is the source of truth."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from engine.grading import GradeReport
from judge.grading import recording
from judge.grading import services as grading
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.services import claims, intake
from tests.conftest import read_solution


@pytest.fixture
def no_enqueue(monkeypatch):
    sent = []
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: sent.append(pk))
    return sent


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("x" * 70_000, "the code is 70,000 bytes; the limit is 65,536 bytes"),
        (b"def f():\n    return '\xff'\n", "not valid UTF-8 (byte 0xff on line 2)"),
        ("   \n", "the code is empty"),
        ("a = 1\x00", "NUL byte"),
    ],
)
def test_bad_code_is_rejected_with_a_specific_message_and_nothing_is_stored(
    code, message, problems, student, no_enqueue
):
    with pytest.raises(intake.SubmissionRejected, match=message.replace("(", r"\(").replace(")", r"\)")):
        intake.submit_solution(student, problems["prepend_class_token"], code)
    assert Submission.objects.count() == 0 and no_enqueue == []


@pytest.mark.django_db(transaction=True)
def test_submission_is_enqueued_only_after_commit(problems, student, no_enqueue):
    submission = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    assert no_enqueue == [submission.pk]
    assert submission.status == Status.QUEUED
    assert submission.test_set_id == problems["prepend_class_token"].current_test_set_id


def test_a_claimed_submission_cannot_be_claimed_again(problems, student, no_enqueue):
    submission = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    assert claims.claim_submission(submission.pk) is not None
    assert claims.claim_submission(submission.pk) is None


def test_a_running_submission_with_a_silent_worker_can_be_reclaimed(problems, student, no_enqueue, settings):
    submission = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    first = claims.claim_submission(submission.pk)
    Submission.objects.filter(pk=submission.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=5))
    second = claims.claim_submission(submission.pk)
    assert second is not None and second != first
    # The dead worker's late verdict is discarded; only the new claim records.
    assert not recording.record_verdict(submission.pk, first, GradeReport("accepted"))
    assert recording.record_verdict(submission.pk, second, GradeReport("wrong_answer"))
    submission.refresh_from_db()
    assert (submission.status, submission.verdict, submission.attempts) == ("done", "wrong_answer", 2)


def test_grading_a_correct_submission_records_accepted_once(problems, student, no_enqueue):
    submission = intake.submit_solution(student, problems["prepend_class_token"], read_solution("prepend_class_token"))
    assert grading.grade_submission(submission.pk) is True
    assert grading.grade_submission(submission.pk) is False  # a redelivered message grades nothing
    submission.refresh_from_db()
    assert submission.verdict == "accepted"
    assert len(submission.results) == 13 and all(r["status"] == "passed" for r in submission.results)


def test_run_grades_only_the_visible_examples(problems, student, no_enqueue):
    submission = intake.submit_solution(
        student, problems["prepend_class_token"], read_solution("prepend_class_token"), kind=Kind.RUN
    )
    grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    assert [r["hidden"] for r in submission.results] == [False, False]


def test_recovery_resends_lost_and_abandoned_submissions(problems, student, no_enqueue):
    lost = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    abandoned = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    fresh = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    old = timezone.now() - timedelta(minutes=10)
    Submission.objects.filter(pk=lost.pk).update(enqueued_at=old)
    claims.claim_submission(abandoned.pk)
    Submission.objects.filter(pk=abandoned.pk).update(heartbeat_at=old)
    no_enqueue.clear()
    assert sorted(claims.recover_stalled_submissions()) == sorted([lost.pk, abandoned.pk])
    assert fresh.pk not in no_enqueue


def test_a_submission_whose_sandbox_keeps_failing_gets_internal_error(problems, student, no_enqueue, monkeypatch):
    from sandbox.backends.base import SandboxError

    def broken(*args, **kwargs):
        raise SandboxError("container vanished")

    monkeypatch.setattr(grading, "grade", broken)
    submission = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    assert submission.verdict == "internal_error"
    assert "container vanished" in submission.message


def test_a_sandbox_that_dies_twice_is_replaced_and_the_third_try_grades(problems, student, no_enqueue, monkeypatch):
    from sandbox.backends.base import SandboxError

    real_grade, deaths = grading.grade, []

    def dies_twice(*args, **kwargs):
        if len(deaths) < 2:
            deaths.append(1)
            raise SandboxError("container died mid-job")
        return real_grade(*args, **kwargs)

    monkeypatch.setattr(grading, "grade", dies_twice)
    submission = intake.submit_solution(student, problems["prepend_class_token"], read_solution("prepend_class_token"))
    grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    assert submission.verdict == "accepted" and len(deaths) == 2


def test_when_every_try_fails_the_message_says_it_was_the_judges_fault(problems, student, no_enqueue, monkeypatch):
    from sandbox.backends.base import SandboxError

    tries = []

    def always_dies(*args, **kwargs):
        tries.append(1)
        raise SandboxError("container died mid-job")

    monkeypatch.setattr(grading, "grade", always_dies)
    submission = intake.submit_solution(student, problems["prepend_class_token"], "def f(): pass")
    grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    assert len(tries) == 3 and submission.verdict == "internal_error"
    assert "failed 3 times" in submission.message
    assert "the judge's fault, not your code's" in submission.message
