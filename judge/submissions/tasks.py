"""The sweep's Celery task: it calls ``claims.recover_stalled_submissions``; its route and schedule are in settings."""

from __future__ import annotations

from celery import shared_task

from judge.lib.broker import broker_lost_messages
from judge.submissions.services import claims


@shared_task(name=claims.RECOVER_TASK, ignore_result=True)
def recover_stalled_submissions() -> None:
    claims.recover_stalled_submissions(broker_lost=broker_lost_messages())
