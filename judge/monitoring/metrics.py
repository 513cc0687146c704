"""``/metrics`` in Prometheus' text format: what the site is doing, read from the database when scraped.

The database is the source of truth, and every web process of every host reads the same rows, so any of them
answers a scrape with the same figures: queues, verdicts, latencies, workers, sandboxes, gate runs and LTI score
posts are counted by a few aggregate queries at scrape time (``JudgeCollector``), not by counters in one
process.  Only HTTP responses are counted as they happen, per host (``judge/lib/metrics.py``).  The broker's own
queue lengths are read from Redis where it is the broker (a pipeline of LLENs).

Counts of rows that only grow (graded submissions, finished gate runs) are exposed as counters: a rejudge that
sends a submission back to the queue lowers one for a moment, which Prometheus' ``rate`` takes for a reset.
The histograms are cumulative over every graded submission the database holds; their rate over a window is the
recent distribution (docs/operators/monitoring.md#metrics).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Case, Count, DurationField, ExpressionWrapper, F, IntegerField, Max, Sum, Value, When
from django.utils import timezone
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from engine.verdicts import Verdict
from judge.lib.broker import GRADING_LANES
from judge.lib.metrics import HTTP_RESPONSES
from judge.lti.models import ScorePost, ScoreStatus
from judge.monitoring.status import broker_depths, oldest_waiting, submission_counts
from judge.problems.models import GateRun, GateStatus
from judge.submissions.models import Kind, Status, Submission, WorkerHeartbeat
from judge.submissions.workers import live_sandbox_pools

# Seconds from a submission's being queued to its final verdict: a Run on an idle site takes a fraction of a
# second, a Submit a second or two, a class's backlog tens of seconds.
LATENCY_BUCKETS = (0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300, 600)
# Seconds a worker spent grading one (``Submission.grading_ms``): the sandbox jobs and the checks.
GRADING_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60)


class JudgeCollector(Collector):
    """Every database-derived figure, read at scrape time."""

    def collect(self) -> Iterator[Metric]:
        now = timezone.now()
        yield from queue_figures(now)
        yield from verdict_figures()
        yield from worker_figures(now)
        yield from sandbox_figures()
        yield from gate_figures()
        yield from score_post_figures()
        yield from broker_figures()


def queue_figures(now: datetime) -> Iterator[Metric]:
    waiting = GaugeMetricFamily(
        "judge_submissions_waiting",
        "Submissions queued (waiting for a worker, or parked behind their student's running one), by kind",
        labels=["kind"],
    )
    running = GaugeMetricFamily("judge_submissions_running", "Submissions being graded now, by kind", labels=["kind"])
    for (status, kind), n in submission_counts().items():
        (waiting if status == Status.QUEUED else running).add_metric([kind], n)
    yield waiting
    yield running
    oldest = oldest_waiting()
    yield GaugeMetricFamily(
        "judge_oldest_waiting_submission_seconds",
        "How long the submission queued longest has waited since it was sent to be graded (0: none waits)",
        value=max(0.0, (now - oldest.sent_at).total_seconds()) if oldest else 0.0,  # type: ignore[attr-defined]  # annotated
    )


def bucket_of(field: str, bounds: Iterable[Any]) -> Case:
    """The index of the first bucket ``field`` fits in (``len(bounds)``: above them all; -1: no value)."""
    bounds = list(bounds)
    return Case(
        When(**{f"{field}__isnull": True}, then=Value(-1)),
        *[When(**{f"{field}__lte": bound}, then=Value(i)) for i, bound in enumerate(bounds)],
        default=Value(len(bounds)),
        output_field=IntegerField(),
    )


GRADED_KEY = "metrics:graded-groups"


def graded_groups() -> list[dict[str, Any]]:
    """The finished submissions grouped by kind, verdict and bucket.  The one figure that scans the table (2-3 s
    at a million submissions on a loaded machine: bench/metrics_scrape.py), so it is kept in the shared cache for
    ``METRICS_CACHE_S``: several Prometheus servers, or one scraping several web hosts, cost one scan per period."""
    ttl = settings.METRICS_CACHE_S
    try:
        rows = cache.get(GRADED_KEY) if ttl > 0 else None
    except Exception:  # the cache is down: it only spares a scan
        rows = None
    if rows is not None:
        return rows
    wait = ExpressionWrapper(F("finished_at") - F("enqueued_at"), output_field=DurationField())
    rows = list(
        Submission.objects.filter(status=Status.DONE)
        .annotate(wait=wait)
        .annotate(
            wait_bucket=bucket_of("wait", (timedelta(seconds=b) for b in LATENCY_BUCKETS)),
            grading_bucket=bucket_of("grading_ms", (b * 1000 for b in GRADING_BUCKETS)),
        )
        .values("kind", "verdict", "wait_bucket", "grading_bucket")
        .annotate(n=Count("pk"), wait_total=Sum("wait"), grading_total=Sum("grading_ms"), last=Max("finished_at"))
        .order_by()
    )
    if ttl > 0:
        try:
            cache.set(GRADED_KEY, rows, ttl)
        except Exception:
            pass
    return rows


def verdict_figures() -> Iterator[Metric]:
    """The graded count and both histograms from one pass over the finished submissions, grouped by kind,
    verdict and the bucket each falls in (a few hundred groups at most): one scan instead of one per figure,
    and each row compared only up to its bucket."""
    rows = graded_groups()
    counts = {(str(kind), str(verdict)): 0 for kind in Kind for verdict in Verdict}
    waits, gradings = [0] * (len(LATENCY_BUCKETS) + 1), [0] * (len(GRADING_BUCKETS) + 1)
    wait_total, grading_total, last = timedelta(0), 0.0, None
    for row in rows:
        counts[(row["kind"], row["verdict"] or "none")] += row["n"]  # none: a custom Run with no expected output
        if row["wait_bucket"] >= 0:
            waits[row["wait_bucket"]] += row["n"]
            wait_total += row["wait_total"]
        if row["grading_bucket"] >= 0:
            gradings[row["grading_bucket"]] += row["n"]
            grading_total += row["grading_total"]
        last = max(filter(None, (last, row["last"])), default=None)
    graded = CounterMetricFamily(
        "judge_submissions_graded", "Submissions with a final verdict, by kind and verdict", labels=["kind", "verdict"]
    )
    for (kind, verdict), n in sorted(counts.items()):
        graded.add_metric([kind, verdict], n)
    yield graded
    yield histogram(
        "judge_submission_latency_seconds",
        "From a submission's being sent to be graded to its final verdict (every graded submission the database holds)",
        LATENCY_BUCKETS,
        waits,
        wait_total.total_seconds(),
    )
    yield histogram(
        "judge_grading_seconds",
        "The time a worker spent grading a submission (its sandbox jobs and checks)",
        GRADING_BUCKETS,
        gradings,
        grading_total / 1000,
    )
    yield GaugeMetricFamily(
        "judge_last_verdict_timestamp_seconds",
        "When the newest final verdict was recorded (Unix time; 0: none yet)",
        value=last.timestamp() if last else 0.0,
    )


def histogram(
    name: str, documentation: str, bounds: Iterable[float], per_bucket: list[int], total: float
) -> HistogramMetricFamily:
    """``per_bucket``: how many fell in each bucket alone, the last one above every bound."""
    cumulative = list(itertools.accumulate(per_bucket))
    buckets = [(str(float(b)), n) for b, n in zip(bounds, cumulative)] + [("+Inf", cumulative[-1])]
    return HistogramMetricFamily(name, documentation, buckets=buckets, sum_value=total)


def worker_figures(now: datetime) -> Iterator[Metric]:
    age = GaugeMetricFamily(
        "judge_worker_heartbeat_age_seconds",
        "Seconds since each Celery worker last wrote its heartbeat (one is taken for gone after WORKER_SILENT_AFTER_S)",
        labels=["worker", "host", "lanes"],
    )
    slots = GaugeMetricFamily(
        "judge_worker_slots", "Tasks each worker runs at once", labels=["worker", "host", "lanes"]
    )
    alive_slots = 0
    for beat in WorkerHeartbeat.objects.order_by("hostname"):
        labels = [beat.hostname, beat.host, beat.lanes]
        seconds = max(0.0, (now - beat.seen_at).total_seconds())
        age.add_metric(labels, seconds)
        slots.add_metric(labels, beat.slots)
        if seconds <= settings.WORKER_SILENT_AFTER_S and set(beat.lanes.split(",")) & set(GRADING_LANES):
            alive_slots += beat.slots
    yield age
    yield slots
    yield GaugeMetricFamily(
        "judge_grading_slots_alive",
        "Grading slots of the workers heard from within WORKER_SILENT_AFTER_S (0: nothing is being graded)",
        value=alive_slots,
    )


def sandbox_figures() -> Iterator[Metric]:
    size = GaugeMetricFamily(
        "judge_sandbox_pool_size",
        "Warm sandboxes the grading processes of each host keep (Docker: containers)",
        labels=["host", "backend"],
    )
    recycled = CounterMetricFamily(
        "judge_sandbox_recycled",
        "Sandboxes replaced after a job (a limit hit, "
        "something left behind, their age), by the live processes of each host",
        labels=["host", "backend"],
    )
    failures = CounterMetricFamily(
        "judge_sandbox_failures",
        "Sandboxes thrown away after failing mid-job (the job "
        "was tried again on a fresh one), by the live processes of each host",
        labels=["host", "backend"],
    )
    hosts: dict[tuple[str, str], list[int]] = {}
    for pool in live_sandbox_pools():
        figures = hosts.setdefault((pool.host, pool.backend), [0, 0, 0])
        figures[0] += pool.size
        figures[1] += pool.recycled
        figures[2] += pool.failures
    for (host, backend), (n, replaced, failed) in sorted(hosts.items()):
        size.add_metric([host, backend], n)
        recycled.add_metric([host, backend], replaced)
        failures.add_metric([host, backend], failed)
    yield size
    yield recycled
    yield failures


def gate_figures() -> Iterator[Metric]:
    runs = GaugeMetricFamily(
        "judge_gate_runs", "Publish gate runs by state (passed and failed: finished)", labels=["state"]
    )
    states = {"queued": 0, "running": 0, "passed": 0, "failed": 0}
    for row in GateRun.objects.values("status", "passed").annotate(n=Count("pk")):
        if row["status"] == GateStatus.DONE:
            states["passed" if row["passed"] else "failed"] += row["n"]
        else:
            states[row["status"]] += row["n"]
    for state, n in states.items():
        runs.add_metric([state], n)
    yield runs


def score_post_figures() -> Iterator[Metric]:
    posts = GaugeMetricFamily(
        "judge_lti_score_posts",
        "Scores sent back to an LMS, by state (one per student and linked assignment)",
        labels=["state"],
    )
    counts = dict.fromkeys(ScoreStatus.values, 0)
    for row in ScorePost.objects.values("status").annotate(n=Count("pk")):
        counts[row["status"]] = row["n"]
    for state, n in counts.items():
        posts.add_metric([state], n)
    yield posts


def broker_figures() -> Iterator[Metric]:
    depths = broker_depths()
    if depths is None:
        return
    messages = GaugeMetricFamily(
        "judge_broker_messages",
        "Messages waiting in the broker (Redis, or the embedded default's queue folder), by queue",
        labels=["queue"],
    )
    for queue, n in depths.items():
        messages.add_metric([queue], n)
    yield messages


def scrape() -> bytes:
    """The whole exposition: the database's figures, and this host's HTTP counts (every web process's, where
    gunicorn runs several: prometheus-client's multiprocess mode)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(JudgeCollector())
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(HTTP_RESPONSES)
    return generate_latest(registry)
