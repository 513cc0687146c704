"""Celery tasks of the courses app: each takes ids (or nothing) and calls a plain function (``release``)."""

from __future__ import annotations

from celery import shared_task

from judge.courses import release

NOTIFY_TASK = "judge.courses.tasks.notify_moved_credit"


@shared_task(name=NOTIFY_TASK, ignore_result=True)
def notify_moved_credit() -> None:
    release.notify_finished_rejudges()
