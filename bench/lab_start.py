"""The start of a lab: 300 students submit within a minute, and how grading scales with worker processes.

Starts the stack bench/classroom.py starts (compose's default sizing on 127.0.0.1: gunicorn with
deploy/gunicorn.conf.py, 3 uvicorn processes, a database pool of 12 each; PostgreSQL and Redis already
running here; the Docker sandbox when it is there, else the process sandbox), in a database and a Redis
db of its own, with one problem.  Then for each worker size in ``--workers`` (grading processes of one
Celery worker on run,submit,rejudge, as compose's ``WORKER_CONCURRENCY``): ``--students`` students, each
from an address of its own, sign in, then each submits once at a random moment of ``--window`` seconds
(45% correct, 30% wrong, 15% runtime errors, 10% infinite loops) and waits for the verdict as the page
does: the status stream (server-sent events), then the status fragment.  The database is asked at the
end of each round what became of every submission.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/lab_start.py                      # 300 students, workers 1, 2, 4

Targets (issue 19, on a 2-core machine, compose's default of 2 worker processes): 0 HTTP errors,
0 lost, 0 graded twice, every submission final, correct submissions' submit -> verdict p95 <= 10 s.
Stops by itself: each round is bounded by --window plus --drain-timeout; the stack stops at the end.
"""

from __future__ import annotations

if __name__ == "__main__":  # the students run on gevent: patch before anything opens a socket
    from gevent import monkey

    monkey.patch_all()

import argparse
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import (
    FINAL,
    MIX,
    PYTHON,
    ROOT,
    SUBMISSION,
    VERDICT,
    Stack,
    bring_up,
    codes_for,
    from_address,
    log_in,
    make_stack,
    pct,
)

TARGETS = {"correct_p95_s": 10.0}
COMPOSE_WORKERS = 2


def address_of(i: int) -> str:
    return f"127.0.{10 + i // 250}.{i % 250 + 1}"


@dataclass
class Round:
    workers: int
    latencies: dict = field(default_factory=lambda: {kind: [] for kind, _ in MIX})
    errors: dict = field(default_factory=dict)
    logins: list = field(default_factory=list)
    lost: list = field(default_factory=list)
    ids: list = field(default_factory=list)
    db: dict = field(default_factory=dict)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def wait_for_final(session, url: str, pk: int, timeout: float, tally: Round) -> str | None:
    """Follow the status stream as the page's EventSource does (resuming with Last-Event-ID), then read the
    status fragment once the stream says the submission is done; the verdict, or None after ``timeout``."""
    started, shown = time.monotonic(), "queued"
    while time.monotonic() - started < timeout:
        try:
            with session.get(
                f"{url}/submissions/{pk}/events/?shown=queued",
                stream=True,
                timeout=(5, 30),
                headers={"Accept": "text/event-stream", "Last-Event-ID": shown},
            ) as stream:
                if stream.status_code != 200:
                    tally.error(f"events {stream.status_code}")
                    time.sleep(1)
                    continue
                for line in stream.iter_lines():
                    if line.startswith(b"data: "):
                        shown = line[6:].decode()
                        if shown == "done":
                            break
        except OSError:  # the stream dropped or stayed silent: reconnect, as EventSource does
            continue
        if shown == "done":
            page = session.get(f"{url}/submissions/{pk}/status/", headers={"HX-Request": "true"})
            if page.status_code != 200:
                tally.error(f"status {page.status_code}")
                continue
            if FINAL.search(page.text).group(1) == "true":
                return VERDICT.search(page.text).group(1)
    return None


def signed_in(i: int, stack: Stack, tally: Round):
    import requests

    session = from_address(requests.Session(), address_of(i))
    log_in(session, stack.url, f"student{i:03d}", tally)
    return session


def submit_and_follow(session, stack: Stack, args, code: str, kind: str, at: float, tally: Round) -> None:
    import gevent

    gevent.sleep(max(0.0, at - time.monotonic()))
    headers = {"HX-Request": "true", "X-CSRFToken": session.cookies.get("csrftoken", ""), "Referer": stack.url}
    started = time.monotonic()
    response = session.post(
        f"{stack.url}/submissions/new/{args.problem}/", headers=headers, data={"code": code, "kind": "submit"}
    )
    found = SUBMISSION.search(response.text)
    if response.status_code != 200 or not found:
        tally.error(f"submit {response.status_code}")
        return
    pk = int(found.group(1))
    tally.ids.append(pk)
    if wait_for_final(session, stack.url, pk, args.drain_timeout + args.window, tally) is None:
        tally.lost.append(pk)
    else:
        tally.latencies[kind].append(time.monotonic() - started)


ROUND_REPORT = """
import json
from django.db.models import Max, Min
from judge.submissions.models import Status, Submission
rows = Submission.objects.filter(pk__in={ids})
span = rows.aggregate(first=Min("created_at"), last=Max("finished_at"))
print(json.dumps({{
    "total": rows.count(), "open": rows.exclude(status=Status.DONE).count(),
    "graded_more_than_once": rows.filter(attempts__gt=1).count(),
    "internal_errors": rows.filter(verdict="internal_error").count(),
    "span_s": (span["last"] - span["first"]).total_seconds() if span["last"] else 0,
}}))
"""


def run_round(stack: Stack, args, codes: dict[str, str], workers: int) -> Round:
    import gevent

    worker = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "celery",
            "-A",
            "judge",
            "worker",
            "--loglevel=WARNING",
            "--without-mingle",
            "--without-gossip",
            "-Q",
            "run,submit,rejudge",
            f"--concurrency={workers}",
            f"--hostname=lab{workers}@%h",
        ],
        cwd=ROOT,
        env=stack.env | {"SANDBOX_POOL_SIZE": str(workers)},
        stdout=open(stack.logs / f"worker-{workers}.log", "wb"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    time.sleep(args.warm_up)  # the worker preloads the test set and warms its sandboxes
    tally = Round(workers)
    rng = random.Random(args.seed + workers)
    kinds, weights = zip(*MIX)
    logins = [gevent.spawn(signed_in, i, stack, tally) for i in range(args.students)]  # all signed in first
    gevent.joinall(logins, timeout=300)
    start = time.monotonic()
    greenlets = []
    for login in logins:
        kind = rng.choices(kinds, weights)[0]
        if login.successful():
            greenlets.append(
                gevent.spawn(
                    submit_and_follow,
                    login.value,
                    stack,
                    args,
                    codes[kind],
                    kind,
                    start + rng.uniform(0, args.window),
                    tally,
                )
            )
        else:
            tally.error("login failed")
    gevent.joinall(greenlets, timeout=args.window + args.drain_timeout + 30)
    gevent.killall(greenlets, block=False)
    tally.db = stack.django(ROUND_REPORT.format(ids=tally.ids))
    os.killpg(worker.pid, 15)
    worker.wait(timeout=60)
    return tally


def report(args, rounds: list[Round]) -> None:
    print(
        f"\n## The start of a lab: {args.students} students submit within {args.window:.0f} s, problem "
        f"{args.problem}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
    )
    print(
        "| worker processes | graded/s | correct submit -> verdict p50 / p95 s | all kinds p95 s | "
        "HTTP errors | lost | not final | graded twice | internal errors |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rounds:
        every = [t for times in r.latencies.values() for t in times]
        correct = r.latencies["correct"]
        rate = r.db["total"] / r.db["span_s"] if r.db["span_s"] else 0
        print(
            f"| {r.workers} | {rate:.2f} | {pct(correct, 50):.2f} / {pct(correct, 95):.2f} | {pct(every, 95):.2f} "
            f"| {sum(r.errors.values())} {r.errors or ''} | {len(r.lost)} | {r.db['open']} | "
            f"{r.db['graded_more_than_once']} | {r.db['internal_errors']} |"
        )
    for r in rounds:
        if r.workers == COMPOSE_WORKERS:
            p95 = pct(r.latencies["correct"], 95)
            met = (
                not r.errors
                and not r.lost
                and not r.db["open"]
                and not r.db["graded_more_than_once"]
                and len(r.ids) == args.students
                and p95 <= TARGETS["correct_p95_s"]
            )
            print(
                f"\nWith compose's {COMPOSE_WORKERS} worker processes: {len(r.ids)} of {args.students} accepted, "
                f"correct p95 {p95:.2f} s (target <= 10 s, 0 errors, 0 lost, 0 twice, all final): "
                f"{'met' if met else 'MISSED'}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--window", type=float, default=60.0, help="seconds over which the students submit")
    parser.add_argument("--workers", default="1,2,4", help="grading processes per round, comma-separated")
    parser.add_argument(
        "--problem", default="prepend_class_token", choices=["prepend_class_token", "scaled_dot_product_attention"]
    )
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--database", default="judge_bench_lab")
    parser.add_argument("--redis-db", type=int, default=12)
    parser.add_argument("--warm-up", type=float, default=8.0, help="seconds between a worker's start and the lab")
    parser.add_argument("--drain-timeout", type=float, default=240.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(n) for n in args.workers.split(",")]
    if not (1 <= args.students <= 1000 and 0 < args.window <= 300 and all(1 <= n <= 8 for n in sizes)):
        parser.error("--students must be 1-1000, --window at most 300 s, --workers each 1-8")

    codes = codes_for(args.problem)
    args.concurrency = 1  # bring_up starts a grading worker; each round starts its own instead
    stack = make_stack(args)
    try:
        bring_up_without_grading(stack, args)
        rounds = [run_round(stack, args, codes, n) for n in sizes]
        report(args, rounds)
    finally:
        stack.stop()


def bring_up_without_grading(stack: Stack, args) -> None:
    """bench/classroom.py's stack, minus its grading worker: the rounds start theirs."""
    bring_up(stack, args)
    grading = stack.processes.pop(1)  # web, worker, maintenance: in that order
    os.killpg(grading.pid, 15)
    grading.wait(timeout=60)
    print(json.dumps({"stack": stack.url, "students": args.students}), flush=True)


if __name__ == "__main__":
    main()
