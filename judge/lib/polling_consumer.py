"""The worker's consumer on a broker that is polled (the embedded default's file-system broker).

Celery runs such a transport in its blocking loop, which acknowledges finished tasks only between two
waits for a message, and waits up to 2 s.  With every worker slot holding an unacknowledged message
(``acks_late``, prefetch 1), no new message is taken until that wait ends: a backlog such as a rejudge
moved at one message per slot every 2 s while the slots sat idle.  While a task runs, a wait here lasts at
most ``BROKER_POLL_S``, so a finished task is acknowledged within one poll.  A worker with nothing running has
nothing to acknowledge: it waits up to ``BROKER_IDLE_WAIT_S``, and the broker's folder watch
(judge/lib/file_broker.py) wakes it as soon as a message arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery.worker import loops, state
from celery.worker.consumer import Consumer
from django.conf import settings


def brief_waits(connection, longest: Callable[[], float]):
    """``connection.drain_events`` that never waits longer than ``longest()`` seconds at a time."""
    drain = connection.drain_events

    def drain_events(timeout: float | None = None, **kwargs):
        limit = longest()
        return drain(timeout=limit if timeout is None else min(timeout, limit), **kwargs)

    return drain_events


def wait_limit() -> float:
    """One poll while a task of this worker is reserved or running (its ack waits for the wait to end); longer
    when it has none."""
    if state.active_requests or state.reserved_requests:
        return settings.BROKER_POLL_S
    return max(settings.BROKER_POLL_S, settings.BROKER_IDLE_WAIT_S)


def polled_synloop(obj, connection, *args, **kwargs):
    connection.drain_events = brief_waits(connection, wait_limit)
    return loops.synloop(obj, connection, *args, **kwargs)


class PollingConsumer(Consumer):
    loop: Callable[..., Any]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.loop is loops.synloop:  # a transport with an event loop (Redis) keeps Celery's own
            self.loop = polled_synloop
