from __future__ import annotations

from celery import shared_task

from judge.authoring import services


@shared_task(acks_late=True, ignore_result=True)
def rejudge_batch(batch_id: int) -> None:
    services.run_rejudge_batch(batch_id)
