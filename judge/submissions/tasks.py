"""Celery tasks: each takes ids and calls a service; the routing to queues is in settings and ``broker``."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_process_init

from judge.lib.broker import broker_lost_messages
from judge.submissions import services

log = logging.getLogger(__name__)


@worker_process_init.connect
def warm_up(**kwargs) -> None:
    """Each grading process reads the published test sets and opens its sandbox as it starts, not on its first
    submission (the maintenance worker runs the solo pool: no child processes, so it does not)."""
    try:
        log.info("worker process ready: %d test sets read ahead", services.preload_test_sets())
    except Exception:  # a database not there yet must not stop the worker; the first submission reads them
        log.warning("could not read the test sets ahead", exc_info=True)
    finally:
        from django.db import connection

        if not connection.in_atomic_block:
            connection.close()  # the child's first task opens its own


@shared_task(name=services.GRADE_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def grade_submission(submission_id: int, capped: bool = True) -> None:
    services.grade_submission(submission_id, capped=capped)


@shared_task(name=services.SPEED_TASK, ignore_result=True)
def measure_speed(submission_id: int) -> None:
    services.measure_submission_speed(submission_id)


@shared_task(name=services.RECOVER_TASK, ignore_result=True)
def recover_stalled_submissions() -> None:
    services.recover_stalled_submissions(broker_lost=broker_lost_messages())
