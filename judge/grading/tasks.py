"""The grading worker's Celery tasks: each takes ids and calls a service; the routing to queues is in settings
and ``broker``.  Their names are those they had in judge.submissions.tasks, where they lived before this app:
messages already queued, the routes and the workers' queues all use the names."""

from __future__ import annotations

import logging
import threading

from celery import current_app, shared_task
from celery.signals import worker_process_init

from judge.grading import services as grading
from judge.lib.broker import Lane
from judge.submissions.services import intake

log = logging.getLogger(__name__)


@worker_process_init.connect
def warm_up(**kwargs) -> None:
    """Each process that runs student code opens its sandbox as it starts, and reads the published test sets in
    a thread of its own while it grades: a worker restarted with a backlog grades its first submission within
    a second or two, not after reading every test set (10-34 s for 62 of them, by load).  A submission whose
    test set is not read yet reads it itself (``cached_cases``).  The maintenance worker runs no student code
    and opens nothing."""
    if not runs_student_code():
        return
    try:
        grading.open_sandbox_ahead()
    finally:
        _close_connection()
    threading.Thread(target=read_test_sets_ahead, name="read-test-sets", daemon=True).start()


def runs_student_code() -> bool:
    """Whether this worker consumes a queue other than the maintenance one."""
    consumed = set(current_app.amqp.queues.consume_from or ())
    return not consumed or bool(consumed - {Lane.MAINTENANCE})


def read_test_sets_ahead() -> None:
    try:
        log.info("worker process: %d test sets read ahead", grading.preload_test_sets())
    except Exception:  # a database not there yet must not stop the worker; each submission reads its own
        log.warning("could not read the test sets ahead", exc_info=True)
    finally:
        _close_connection()


def _close_connection() -> None:
    from django.db import connection

    if not connection.in_atomic_block:
        connection.close()  # the task that comes next opens its own


@shared_task(name=intake.GRADE_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def grade_submission(submission_id: int, capped: bool = True, band: int | None = None) -> None:
    grading.grade_submission(submission_id, capped=capped, band=band)


@shared_task(name=grading.SPEED_TASK, ignore_result=True)
def measure_speed(submission_id: int) -> None:
    grading.measure_submission_speed(submission_id)
