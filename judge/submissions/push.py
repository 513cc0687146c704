"""Telling a waiting page that a submission's status changed, as soon as it does.

The worker publishes on a Redis channel per submission when it claims one and
when it records the verdict; the status view (a long poll) waits on that
channel and answers the moment something arrives.  Without Redis (the
embedded default, a file-system broker) the view re-reads the row every
``PUSH_DB_POLL_S`` seconds instead: the database stays the source of truth
either way, and a message only says "look again".
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import connection

from judge.submissions.models import Submission

log = logging.getLogger(__name__)
_client = None


def redis_client():
    """The site's Redis (``REDIS_URL``), or None on the embedded default."""
    global _client
    if not settings.REDIS_URL:
        return None
    if _client is None:
        import redis

        _client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
    return _client


def channel(submission_id: int | str) -> str:
    # Pub/sub ignores Redis's database number: the database name keeps two sites (or test runs) apart.
    return f"judge:{connection.settings_dict['NAME']}:submission:{submission_id}"


def every_channel() -> str:
    """The pattern of every submission's channel, for a page that watches many (a course's live matrix)."""
    return channel("*")


def publish_status(submission_id: int, status: str) -> None:
    client = redis_client()
    if client is None:
        return
    try:
        client.publish(channel(submission_id), status)
    except Exception:  # the page falls back on its next poll
        log.warning("could not publish the status of submission %s", submission_id, exc_info=True)


def current_status(submission_id: int) -> str | None:
    return Submission.objects.filter(pk=submission_id).values_list("status", flat=True).first()


def wait_for_change(submission_id: int, shown: str, timeout: float) -> str | None:
    """Return the submission's status once it differs from ``shown``, or after ``timeout`` seconds."""
    status = current_status(submission_id)
    if status != shown or timeout <= 0:
        return status
    client = redis_client()
    if client is not None:
        try:
            return _wait_on_redis(client, submission_id, shown, timeout)
        except Exception:
            log.warning("Redis pub/sub failed; polling the database instead", exc_info=True)
    return _wait_on_database(submission_id, shown, timeout)


def _wait_on_redis(client, submission_id: int, shown: str, timeout: float) -> str | None:
    deadline = time.monotonic() + timeout
    with client.pubsub(ignore_subscribe_messages=True) as pubsub:
        pubsub.subscribe(channel(submission_id))
        status = current_status(submission_id)  # it may have changed before the subscription started
        release_database_connection()
        while status == shown and (left := deadline - time.monotonic()) > 0:
            if pubsub.get_message(timeout=left) is not None:
                status = current_status(submission_id)
        return status


def release_database_connection() -> None:
    """A request parked on Redis should not hold one of PostgreSQL's connections; the next query reopens one."""
    if not connection.in_atomic_block:
        connection.close()


def _wait_on_database(submission_id: int, shown: str, timeout: float) -> str | None:
    deadline = time.monotonic() + timeout
    status = shown
    while status == shown and time.monotonic() < deadline:
        time.sleep(settings.PUSH_DB_POLL_S)
        status = current_status(submission_id)
    return status
