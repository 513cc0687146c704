"""A rejudge whose worker died, or whose message the broker lost, is sent again by the sweep, and each
submission still gets one new verdict."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from judge.authoring import services as authoring
from judge.authoring.models import RejudgeBatch
from judge.authoring.services import resume_stalled_rejudges, run_rejudge_batch
from judge.grading import services as grading
from judge.problems.models import Problem
from judge.submissions.models import Status, Submission
from judge.submissions.services import intake
from tests.conftest import read_solution

SLUG = "prepend_class_token"


def graded(student) -> Submission:
    submission = intake.submit_solution(student, Problem.objects.get(slug=SLUG), read_solution(SLUG))
    grading.grade_submission(submission.pk)
    return Submission.objects.get(pk=submission.pk)


def batch_of(author, *submissions: Submission, age: timedelta = timedelta(0)) -> RejudgeBatch:
    batch = RejudgeBatch.objects.create(
        requested_by=author, scope="submission", total=len(submissions), submission_ids=[s.pk for s in submissions]
    )
    RejudgeBatch.objects.filter(pk=batch.pk).update(created_at=timezone.now() - age)
    return RejudgeBatch.objects.get(pk=batch.pk)


def test_the_sweep_sends_again_a_rejudge_that_never_finished_queueing(
    problems, student, author, no_enqueue, monkeypatch
):
    sent = []
    monkeypatch.setattr(authoring, "send_task", lambda name, *args, **kwargs: sent.append((name, args)))
    submission = graded(student)
    stalled = batch_of(author, submission, age=timedelta(hours=1))
    batch_of(author, submission)  # recent: its worker may still be queueing it
    finished = batch_of(author, submission, age=timedelta(hours=1))
    RejudgeBatch.objects.filter(pk=finished.pk).update(queued_all_at=timezone.now())

    assert resume_stalled_rejudges() == [stalled.pk]
    assert sent == [(authoring.REJUDGE_TASK, (stalled.pk,))]


def test_a_rejudge_sent_twice_grades_each_submission_once(problems, student, author, no_enqueue):
    submission = graded(student)
    batch = batch_of(author, submission)

    assert run_rejudge_batch(batch.pk) == 1
    assert grading.grade_submission(submission.pk)
    regraded = Submission.objects.get(pk=submission.pk)

    assert run_rejudge_batch(batch.pk) == 0  # the sweep's second delivery
    again = Submission.objects.get(pk=submission.pk)
    assert (again.status, again.finished_at) == (Status.DONE, regraded.finished_at)
