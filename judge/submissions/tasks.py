from __future__ import annotations

from celery import shared_task

from judge.submissions import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def grade_submission(submission_id: int) -> None:
    services.grade_submission(submission_id)


@shared_task(ignore_result=True)
def recover_stalled_submissions() -> None:
    services.recover_stalled_submissions()
