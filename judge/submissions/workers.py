"""Which grading workers are alive, from the heartbeats they write themselves.

A worker's main process writes its row every ``WORKER_BEAT_S`` seconds (judge/celery.py starts the beat when
the worker is ready and deletes the row when it stops cleanly).  A grading worker none of whose rows has been
written for ``WORKER_SILENT_AFTER_S`` seconds is taken for gone: staff see a banner on every page, a student
whose submission waits is told that grading is not running, and compose's health check on a worker fails.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.utils import timezone

from judge.lib.broker import GRADING_LANES
from judge.submissions.models import SandboxPool, Status, Submission, WorkerHeartbeat

GRADING_STATE_KEY = "workers:grading-state"
GRADING_STATE_TTL_S = 5


@dataclass(frozen=True)
class GradingState:
    running: bool
    last_seen: datetime | None  # the newest beat of any grading worker, None before the first
    oldest_waiting: datetime | None = None  # when the submission queued longest was made

    @property
    def alarming(self) -> bool:
        """Stopped as staff should hear of it: a worker that beat has fallen silent, or none ever beat and a
        submission has waited as long as a silence takes (a worker just starting is no alarm)."""
        if self.running:
            return False
        return self.last_seen is not None or waited_too_long(self.oldest_waiting)


def waited_too_long(since: datetime | None, now: datetime | None = None) -> bool:
    return since is not None and (now or timezone.now()) - since >= timedelta(seconds=settings.WORKER_SILENT_AFTER_S)


def beat(hostname: str, lanes: list[str], slots: int, pid: int, started_at: datetime) -> None:
    """Record that the worker ``hostname`` is alive now; rows of workers gone for a day are dropped."""
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(
        hostname=hostname,
        defaults={
            "host": socket.gethostname(),
            "pid": pid,
            "lanes": ",".join(lanes),
            "slots": slots,
            "started_at": started_at,
            "seen_at": now,
        },
    )
    WorkerHeartbeat.objects.filter(seen_at__lt=now - timedelta(days=1)).delete()
    forget_dead_sandbox_pools(now)


def forget(hostname: str) -> None:
    """A worker that stops cleanly says so at once, rather than by falling silent."""
    WorkerHeartbeat.objects.filter(hostname=hostname).delete()


def grading_state(now: datetime | None = None) -> GradingState:
    """Whether a worker that grades has been heard from within ``WORKER_SILENT_AFTER_S`` seconds."""
    now = now or timezone.now()
    seen = [
        row.seen_at
        for row in WorkerHeartbeat.objects.only("lanes", "seen_at")
        if set(row.lanes.split(",")) & set(GRADING_LANES)
    ]
    last = max(seen, default=None)
    running = last is not None and now - last <= timedelta(seconds=settings.WORKER_SILENT_AFTER_S)
    oldest = (
        None
        if running
        else (
            Submission.objects.filter(status=Status.QUEUED)
            .order_by("created_at")
            .values_list("created_at", flat=True)
            .first()
        )
    )
    return GradingState(running, last, oldest)


def cached_grading_state() -> GradingState | None:
    """``grading_state`` as every page asks for it: kept for a few seconds; None when the database cannot say
    (an error page must still render)."""
    try:
        state = cache.get(GRADING_STATE_KEY)
    except Exception:  # the cache is down: it only spares a query
        state = None
    if state is None:
        try:
            state = grading_state()
        except DatabaseError:
            return None
        try:
            cache.set(GRADING_STATE_KEY, state, GRADING_STATE_TTL_S)
        except Exception:
            pass
    return state


def host_worker_alive(host: str | None = None, now: datetime | None = None) -> bool:
    """Whether a worker on ``host`` (this machine or container) beat within the silence limit: compose's
    health check on a worker service."""
    since = (now or timezone.now()) - timedelta(seconds=settings.WORKER_SILENT_AFTER_S)
    return WorkerHeartbeat.objects.filter(host=host or socket.gethostname(), seen_at__gte=since).exists()


# --------------------------------------------------------------------------
# The grading processes' sandboxes (their pool size and replacements, for /metrics and the status page)
# --------------------------------------------------------------------------

_reported: dict[str, int | str] = {}


def report_sandbox_pool(stats: dict[str, int | str] | None, numpy: str = "") -> bool:
    """Record this process's sandbox (``judge.lib.sandbox_backend.worker_sandbox_stats``) when it changed since
    this process last did: a write when a sandbox opens or is replaced, none per submission otherwise."""
    global _reported
    if stats is None:
        return False
    wanted = stats | {"numpy": numpy or str(_reported.get("numpy", ""))}
    if wanted == _reported:
        return False
    SandboxPool.objects.update_or_create(
        host=socket.gethostname(), pid=os.getpid(), defaults=wanted | {"seen_at": timezone.now()}
    )
    _reported = wanted
    return True


def forget_dead_sandbox_pools(now: datetime) -> None:
    """A worker's beat drops the rows of this host's processes that are gone (pool processes replaced, a
    worker killed), and rows of hosts silent for a day."""
    host = socket.gethostname()
    for pool in SandboxPool.objects.filter(host=host).only("pid"):
        if not _process_alive(pool.pid):
            pool.delete()
    beating = WorkerHeartbeat.objects.values_list("host", flat=True)
    SandboxPool.objects.exclude(host__in=beating).filter(seen_at__lt=now - timedelta(days=1)).delete()


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def live_sandbox_pools() -> list[SandboxPool]:
    """The sandboxes of the hosts where a worker beats now (a host's rows outlive its worker by a day)."""
    since = timezone.now() - timedelta(seconds=settings.WORKER_SILENT_AFTER_S)
    hosts = WorkerHeartbeat.objects.filter(seen_at__gte=since).values_list("host", flat=True)
    return list(SandboxPool.objects.filter(host__in=hosts).order_by("host", "pid"))
