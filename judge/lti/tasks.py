"""Celery tasks of the LTI app: each takes ids and calls a plain function (``scores``)."""

from __future__ import annotations

from celery import shared_task

from judge.lti import scores

RETRIES = 6  # 30 s, 1, 2, 4, 8, 16 minutes: about half an hour of an LMS being down


@shared_task(bind=True, name=scores.POST_SCORE_TASK, acks_late=True, ignore_result=True, max_retries=RETRIES)
def post_score(self, score_id: int) -> None:
    try:
        scores.post_score(score_id)
    except scores.ScorePostFailed as failure:
        raise self.retry(exc=failure, countdown=30 * 2**self.request.retries) from None


@shared_task(name="judge.lti.tasks.resend_stalled_scores", ignore_result=True)
def resend_stalled_scores() -> None:
    scores.resend_stalled()
    scores.send_released()


@shared_task(name=scores.SEND_ASSIGNMENT_TASK, ignore_result=True)
def send_assignment_scores(assignment_id: int) -> None:
    scores.assignment_changed(assignment_id)
