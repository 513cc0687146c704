"""Celery tasks: each takes ids and calls a service; the routing to queues is in settings and ``broker``."""

from __future__ import annotations

from celery import shared_task

from judge.lib.broker import broker_lost_messages
from judge.submissions import services


@shared_task(name=services.GRADE_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def grade_submission(submission_id: int, capped: bool = True) -> None:
    services.grade_submission(submission_id, capped=capped)


@shared_task(name=services.RECOVER_TASK, ignore_result=True)
def recover_stalled_submissions() -> None:
    services.recover_stalled_submissions(broker_lost=broker_lost_messages())
