"""The worker's consumer on a broker that is polled (the embedded default's file-system broker).

Celery runs such a transport in its blocking loop, which acknowledges finished tasks only between two
waits for a message, and waits up to 2 s.  With every worker slot holding an unacknowledged message
(``acks_late``, prefetch 1), no new message is taken until that wait ends: a backlog such as a rejudge
moved at one message per slot every 2 s while the slots sat idle.  Waiting ``BROKER_POLL_S`` at a time
instead acknowledges a finished task within one poll, and costs one more look at the folder.
"""

from __future__ import annotations

from celery.worker import loops
from celery.worker.consumer import Consumer
from django.conf import settings


def brief_waits(connection, longest: float):
    """``connection.drain_events`` that never waits longer than ``longest`` seconds at a time."""
    drain = connection.drain_events

    def drain_events(timeout: float | None = None, **kwargs):
        return drain(timeout=longest if timeout is None else min(timeout, longest), **kwargs)

    return drain_events


def polled_synloop(obj, connection, *args, **kwargs):
    connection.drain_events = brief_waits(connection, settings.BROKER_POLL_S)
    return loops.synloop(obj, connection, *args, **kwargs)


class PollingConsumer(Consumer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.loop is loops.synloop:  # a transport with an event loop (Redis) keeps Celery's own
            self.loop = polled_synloop
