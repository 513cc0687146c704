"""Which Celery queue a piece of work goes to, and whether the broker lost what it held.

Celery does the scheduling: one queue per lane, consumed in priority order
(``queue_order_strategy="priority"`` on Redis, ``worker_prefetch_multiplier=1``),
and each message carries a priority (``fairshare``): a worker takes the lowest
priority number from any of its queues first, and among equal numbers a Run
before a Submit, a Submit before a staff rejudge.  So a student who has used
little worker time lately is the next thing a free worker slot takes, whatever
lane the others' backlog is in.  The recovery sweep has a queue of its own,
which a grading backlog never stands in front of; so has the timing of an
accepted Submit's speed, taken by a worker of its own (one at a time, at the
lowest CPU priority) and by no grading worker, so it never holds a slot a
verdict could use.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable

from celery import current_app
from django.conf import settings
from django.db import models, transaction

log = logging.getLogger(__name__)


class Lane(models.TextChoices):
    """A Celery queue, highest priority first (``CELERY_TASK_QUEUES`` keeps this order; the speed lane is
    left out of it, so that only a worker started with ``-Q speed`` consumes it)."""

    MAINTENANCE = "maintenance", "the recovery sweep, and score posts to an LMS"
    RUN = "run", "Run, and submissions recovered after a fault"
    SUBMIT = "submit", "Submit, and gate runs"
    REJUDGE = "rejudge", "staff rejudges"
    SPEED = "speed", "an accepted Submit's speed"


GRADING_LANES = (Lane.RUN, Lane.SUBMIT, Lane.REJUDGE)
# The lanes whose tasks run student code in a sandbox: a worker on any of them owns sandbox containers.
SANDBOX_LANES = (*GRADING_LANES, Lane.SPEED)


def send_task(
    name: str,
    *args,
    queue: str | None = None,
    on_failure: Callable[[], None] | None = None,
    priority: int | None = None,
    countdown: float | None = None,
    **kwargs,
) -> bool:
    """Send the task called ``name`` now; if the broker is unreachable, log it, call ``on_failure`` and return
    False. By name, so that a service never imports the tasks module that calls it. ``priority``: 0 is taken
    first (Redis); None leaves the task's routed default.  ``countdown``: run it no sooner than that many seconds
    from now."""
    options: dict = {"priority": priority} if priority is not None else {}
    if countdown is not None:
        options["countdown"] = countdown
    try:
        current_app.send_task(name, args, kwargs or None, queue=queue, **options)
    except Exception:  # the broker is down: the caller's recovery path takes over
        log.exception("could not send %s%s", name, args)
        if on_failure is not None:
            on_failure()
        return False
    return True


def enqueue_on_commit(
    name: str,
    *args,
    queue: str | None = None,
    on_failure: Callable[[], None] | None = None,
    countdown: float | None = None,
    **kwargs,
) -> None:
    """Send a task once the current transaction commits (at once outside one), tolerating a broker outage."""
    transaction.on_commit(
        lambda: send_task(name, *args, queue=queue, on_failure=on_failure, countdown=countdown, **kwargs)
    )


# --------------------------------------------------------------------------
# Did the broker lose its messages?  (Redis restarted without persistence, or flushed)
# --------------------------------------------------------------------------

SENTINEL_KEY = "judge:broker-sentinel"


def broker_lost_messages() -> bool:
    """True when the broker's Redis no longer holds the key the last sweep left there.

    A Redis that restarts without persistence (or is flushed) forgets every
    queued message at once; this notices it at the next sweep, seconds later,
    instead of waiting for each submission's ``REQUEUE_AFTER_S``.  The first
    sweep ever also sees no key: re-sending then only costs refused claims.
    """
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return False
    import redis

    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=5, socket_connect_timeout=2)
        with client:
            return bool(client.set(SENTINEL_KEY, "1", nx=True))
    except redis.RedisError:
        log.warning("cannot reach the broker's Redis to check for lost messages")
        return False


# --------------------------------------------------------------------------
# Which submissions does the broker hold?  (lost, or only waiting behind a flood)
# --------------------------------------------------------------------------

PRIORITY_SEPARATOR = "\x06\x16"  # kombu's Redis transport: a queue's priority-p list is "<queue>\x06\x16<p>"
ARGUMENT = re.compile(r"\(\s*(\d+)\s*,")


def held_submissions(task: str) -> set[int] | None:
    """The first argument (a submission id) of every ``task`` message the broker's Redis holds, queued or
    delivered to a worker and not yet acknowledged; None where it cannot say (no Redis, or Redis did not
    answer), and the caller assumes nothing is held."""
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return None
    import redis

    lists = [
        name if step == 0 else f"{name}{PRIORITY_SEPARATOR}{step}"
        for name in (q.name for q in settings.CELERY_TASK_QUEUES)
        for step in settings.BROKER_PRIORITY_STEPS
    ]
    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=5, socket_connect_timeout=2)
        with client, client.pipeline(transaction=False) as pipe:
            for name in lists:
                pipe.lrange(name, 0, -1)
            pipe.hvals("unacked")
            *queued, unacked = pipe.execute()
    except redis.RedisError:
        log.warning("cannot reach the broker's Redis to see what it holds")
        return None
    messages = [m for batch in queued for m in batch] + [_unacked_message(m) for m in unacked]
    return {pk for message in messages if (pk := _submission_of(message, task)) is not None}


def _unacked_message(raw: bytes) -> bytes:
    try:
        return json.dumps(json.loads(raw)[0]).encode()  # [message, exchange, routing key]
    except (ValueError, IndexError, TypeError):
        return b""


def _submission_of(raw: bytes, task: str) -> int | None:
    try:
        headers = json.loads(raw)["headers"]
    except (ValueError, KeyError, TypeError):
        return None
    found = ARGUMENT.match(str(headers.get("argsrepr", ""))) if headers.get("task") == task else None
    return int(found.group(1)) if found else None
