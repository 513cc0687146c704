"""The live matrix: its fragment waits until a Submit of the assignment changes, then shows the matrix again.

It reuses the verdicts' push (``judge.submissions.push``): the worker already publishes on each submission's
channel when it claims one and when it records its verdict; this page subscribes to the pattern of them all and,
on a message, re-reads a small fingerprint of the assignment's Submits. Nothing new is published, so recording a
verdict costs what it did. Without Redis it re-reads the fingerprint every ``PUSH_DB_POLL_S`` seconds, but no
more often than ``LIVE_MIN_INTERVAL_S``.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db.models import Count, Max, Q

from judge.courses.grades import course_submits
from judge.courses.models import Assignment
from judge.submissions import push
from judge.submissions.models import Status

log = logging.getLogger(__name__)
LIVE_MIN_INTERVAL_S = 0.5


def fingerprint(assignment: Assignment) -> str:
    """Changes when a course student makes a Submit on the assignment's problems or one of them is graded."""
    problems = list(assignment.items.values_list("problem_id", flat=True))
    figures = course_submits(assignment.course, problems).aggregate(
        n=Count("id"), done=Count("id", filter=Q(status=Status.DONE)), last=Max("id")
    )
    return f"{figures['n']}-{figures['done']}-{figures['last'] or 0}"


def wait_for_change(assignment: Assignment, shown: str, timeout: float) -> str:
    current = fingerprint(assignment)
    if current != shown or timeout <= 0:
        return current
    client = push.redis_client()
    if client is not None:
        try:
            return _wait_on_redis(client, assignment, shown, timeout)
        except Exception:
            log.warning("Redis pub/sub failed; polling the database instead", exc_info=True)
    return _wait_on_database(assignment, shown, timeout, settings.PUSH_DB_POLL_S)


def _wait_on_redis(client, assignment: Assignment, shown: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    with client.pubsub(ignore_subscribe_messages=True) as pubsub:
        pubsub.psubscribe(push.every_channel())
        current = fingerprint(assignment)  # it may have changed before the subscription started
        push.release_database_connection()
        while current == shown and (left := deadline - time.monotonic()) > 0:
            if pubsub.get_message(timeout=left) is not None:
                time.sleep(min(LIVE_MIN_INTERVAL_S, max(0.0, deadline - time.monotonic())))
                while pubsub.get_message(timeout=0) is not None:  # a burst of verdicts is one look
                    pass
                current = fingerprint(assignment)
                push.release_database_connection()
        return current


def _wait_on_database(assignment: Assignment, shown: str, timeout: float, every: float) -> str:
    deadline = time.monotonic() + timeout
    current = shown
    while current == shown and time.monotonic() < deadline:
        time.sleep(max(every, LIVE_MIN_INTERVAL_S))
        current = fingerprint(assignment)
    return current
