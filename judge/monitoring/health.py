"""``/healthz`` and ``/readyz``: whether this process answers, and whether the site can grade right now.

``/healthz`` touches nothing: a web process that answers it is alive (compose's health check on the web
service, a load balancer's liveness probe).  ``/readyz`` asks what grading needs: the database, the broker's
Redis where it is the broker, and a grading worker heard from within ``WORKER_SILENT_AFTER_S``; it fails when
any of them does not answer, naming which but not why (the reason, which may name hosts and users, is logged);
an uptime monitor's check (docs/operators/monitoring.md#health).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from judge.submissions.workers import grading_state

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def check_database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:  # the reason (host names, users) goes to the log, not to whoever asked
        log.warning("readiness: the database does not answer", exc_info=True)
        return Check("database", False, "does not answer")
    return Check("database", True, "answers")


def check_broker() -> Check | None:
    """The broker's Redis (None where the broker is the embedded default's folder)."""
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return None
    import redis

    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2)
        with client:
            client.ping()
    except redis.RedisError:
        log.warning("readiness: the broker's Redis does not answer", exc_info=True)
        return Check("broker", False, "Redis does not answer")
    return Check("broker", True, "Redis answers")


def check_grading_worker() -> Check:
    try:
        state = grading_state()
    except DatabaseError:
        return Check("grading_worker", False, "cannot tell: the database does not answer")
    if state.running:
        return Check("grading_worker", True, "heard from within WORKER_SILENT_AFTER_S")
    if state.last_seen is None:
        return Check("grading_worker", False, "no grading worker has written a heartbeat")
    silent = (timezone.now() - state.last_seen).total_seconds()
    return Check(
        "grading_worker",
        False,
        f"no grading worker heard from for {silent:.0f} s "
        f"(WORKER_SILENT_AFTER_S is {settings.WORKER_SILENT_AFTER_S:g})",
    )


def readiness() -> list[Check]:
    database = check_database()
    checks = [database, check_broker()]
    checks.append(
        check_grading_worker()
        if database.ok
        else Check("grading_worker", False, "cannot tell: the database does not answer")
    )
    return [check for check in checks if check is not None]
