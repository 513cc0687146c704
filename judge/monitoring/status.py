"""What the staff status page shows, and the queue figures ``/metrics`` shares with it: read from the database
(and the broker's Redis, where it is the broker) when asked."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from judge.lib.broker import GRADING_LANES, PRIORITY_SEPARATOR, Lane
from judge.problems.models import GateRun, GateStatus
from judge.submissions.models import Kind, SandboxPool, Status, Submission, WorkerHeartbeat
from judge.submissions.queries import reported_sandbox
from judge.submissions.workers import live_sandbox_pools

log = logging.getLogger(__name__)

BROKER_QUEUES = (Lane.MAINTENANCE, Lane.RUN, Lane.SUBMIT, Lane.REJUDGE, Lane.SPEED)


def submission_counts() -> dict[tuple[str, str], int]:
    """(status, kind) -> how many, for the queued and running submissions (every pair, 0 included)."""
    counts = {(str(status), str(kind)): 0 for status in (Status.QUEUED, Status.RUNNING) for kind in Kind}
    for row in (
        Submission.objects.filter(status__in=(Status.QUEUED, Status.RUNNING))
        .values("status", "kind")
        .annotate(n=Count("pk"))
    ):
        counts[(row["status"], row["kind"])] = row["n"]
    return counts


def oldest_waiting() -> Submission | None:
    """The submission queued longest, by when it was last sent to be graded (a rejudge: when it was sent back)."""
    return (
        Submission.objects.filter(status=Status.QUEUED)
        .select_related("problem")
        .annotate(sent_at=Coalesce("enqueued_at", "created_at"))
        .order_by("sent_at", "pk")
        .first()
    )


def broker_depths() -> dict[str, int] | None:
    """Messages the broker holds per queue, all priorities together: the Redis lists, or the embedded default's
    queue folder; None with another broker, or when Redis does not answer (the database's figures stand on their
    own)."""
    if settings.CELERY_BROKER_URL == "filesystem://":
        from judge.lib.file_broker import queued_counts

        waiting = queued_counts(settings.BROKER_DIR / "queue")
        return {str(queue): waiting.get(str(queue), 0) for queue in BROKER_QUEUES}
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return None
    import redis

    steps = list(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("priority_steps") or [0])  # type: ignore[call-overload]  # a dict of mixed values
    names = [
        (str(queue), str(queue) if step == 0 else f"{queue}{PRIORITY_SEPARATOR}{step}")
        for queue in BROKER_QUEUES
        for step in steps
    ]
    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=1)
        with client, client.pipeline(transaction=False) as pipe:
            for _, name in names:
                pipe.llen(name)
            lengths = pipe.execute()
    except redis.RedisError:
        log.warning("cannot reach the broker's Redis to count its messages")
        return None
    depths = dict.fromkeys((str(q) for q in BROKER_QUEUES), 0)
    for (queue, _), n in zip(names, lengths):
        depths[queue] += int(n)
    return depths


@dataclass(frozen=True)
class WorkerRow:
    hostname: str
    host: str
    lanes: str
    slots: int
    started_at: datetime
    seen_at: datetime
    silent_s: float
    alive: bool
    grades: bool


@dataclass
class OperationsStatus:
    workers: list[WorkerRow]
    grading_slots: int  # of the grading workers alive
    waiting: dict[str, int]  # kind -> queued
    running: dict[str, int]  # kind -> being graded
    oldest: Submission | None
    oldest_waited_s: float
    broker: dict[str, int] | None
    last_verdict_at: datetime | None
    gating: list[GateRun]
    sandboxes: list[SandboxPool]
    sandbox_image: str
    numpy: str
    backend: str
    notes: list[str] = field(default_factory=list)


def worker_rows(now: datetime) -> list[WorkerRow]:
    rows = []
    for beat in WorkerHeartbeat.objects.order_by("host", "hostname"):
        silent = max(0.0, (now - beat.seen_at).total_seconds())
        rows.append(
            WorkerRow(
                beat.hostname,
                beat.host,
                beat.lanes,
                beat.slots,
                beat.started_at,
                beat.seen_at,
                silent,
                silent <= settings.WORKER_SILENT_AFTER_S,
                bool(set(beat.lanes.split(",")) & set(GRADING_LANES)),
            )
        )
    return rows


def operations_status() -> OperationsStatus:
    now = timezone.now()
    workers = worker_rows(now)
    counts = submission_counts()
    oldest = oldest_waiting()
    sandboxes = live_sandbox_pools()
    reported = reported_sandbox()
    images = sorted({pool.image for pool in sandboxes if pool.image})
    return OperationsStatus(
        workers=workers,
        grading_slots=sum(w.slots for w in workers if w.alive and w.grades),
        waiting={kind: n for (status, kind), n in counts.items() if status == Status.QUEUED},
        running={kind: n for (status, kind), n in counts.items() if status == Status.RUNNING},
        oldest=oldest,
        oldest_waited_s=(now - oldest.sent_at).total_seconds() if oldest else 0.0,  # type: ignore[attr-defined]  # annotated
        broker=broker_depths(),
        last_verdict_at=Submission.objects.filter(status=Status.DONE).aggregate(at=Max("finished_at"))["at"],
        gating=list(
            GateRun.objects.exclude(status=GateStatus.DONE).select_related("problem").order_by("created_at", "pk")
        ),
        sandboxes=sandboxes,
        sandbox_image=", ".join(images) or settings.SANDBOX_IMAGE,
        numpy=", ".join(sorted({p.numpy for p in sandboxes if p.numpy})) or reported.get("numpy", ""),
        backend=", ".join(sorted({p.backend for p in sandboxes})) or reported.get("backend", ""),
    )
