"""The embedded default (``bin/run``) under a class's load for a long stretch, with faults injected.

Starts ``bin/run`` itself on a free port in a scratch var directory (its own SQLite database and file-system
broker) with one problem, then for ``--minutes``:

- ``--students`` simulated students (Locust users from 127.0.0.1) Run and Submit, a mix of correct, wrong,
  crashing and looping code, a few seconds apart, each following its verdict as the page does;
- faults: an empty and a truncated message file planted in the broker's queue folder, four times each, and
  the grading worker killed with SIGKILL ``--kills`` times (its whole process group, pool included).

Then it waits for every submission to be final and prints: worker deaths caused by the broker (the
``Unrecoverable error`` kombu's transport used to cause), restarts, how long the worker took to come back
after each kill (its heartbeat row written by a new process), submissions still open, verdicts counted twice
in the standings, and the submit-to-verdict latency.

    .venv/bin/python bench/soak.py [--minutes 30] [--students 20] [--kills 3]

Targets (issue 37): zero broker deaths, every submission final, none counted twice, the worker back within
10 s of each kill.  tests/test_soak_embedded.py runs the same soak for about a minute in the test suite.
Stops by itself: the students stop at the deadline, every wait is bounded, bin/run is stopped at the end.
"""

from __future__ import annotations

if __name__ == "__main__":  # Locust runs its students on gevent: patch before anything opens a socket or a thread
    from gevent import monkey

    monkey.patch_all()

import argparse
import os
import random
import signal
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import MIX, PASSWORD, Tally, codes_for, log_in, pct, submit_and_wait
from embedded_latency import Embedded

ROOT = Path(__file__).resolve().parent.parent
BACK_WITHIN_S = 10.0
TRUNCATED = b'{"body": "W1sxXSwge30sIHsiY2FsbGJh'


@dataclass
class Faults:
    planted: int = 0
    kills: list[float] = field(default_factory=list)  # seconds until the worker was back, per kill
    not_back: int = 0


class Site(Embedded):
    """bin/run, seen through its SQLite file and its process tree as well as over HTTP."""

    def __init__(self, problem: str, var: Path) -> None:
        super().__init__(problem, var)
        self.env |= {"RATE_LIMIT_SUBMIT": "0", "RATE_LIMIT_RUN": "0"}

    def query(self, sql: str, *params) -> list[tuple]:
        with sqlite3.connect(self.var / "judge.sqlite3", timeout=30) as db:
            return db.execute(sql, params).fetchall()

    def worker_pid(self) -> int | None:
        """The grading worker's main process, from the heartbeat it writes."""
        rows = self.query(
            "SELECT pid FROM submissions_workerheartbeat WHERE lanes LIKE '%submit%' ORDER BY seen_at DESC LIMIT 1"
        )
        return rows[0][0] if rows else None

    def plant(self) -> None:
        queue = self.var / "broker" / "queue"
        stamp = int(time.monotonic() * 1000)
        (queue / f"{stamp}_soak-empty-{stamp}.submit.msg").write_bytes(b"")
        (queue / f"{stamp}_soak-truncated-{stamp}.run.msg").write_bytes(TRUNCATED)

    def kill_worker(self, faults: Faults) -> None:
        pid = self.worker_pid()
        if pid is None:
            return
        killed = time.monotonic()
        try:
            os.killpg(pid, signal.SIGKILL)  # bin/supervise starts it as a process group's leader
        except ProcessLookupError:
            return
        while time.monotonic() - killed < 60:
            new = self.worker_pid()
            if new is not None and new != pid:
                faults.kills.append(time.monotonic() - killed)
                return
            time.sleep(0.2)
        faults.not_back += 1


def inject(site: Site, faults: Faults, duration_s: float, kills: int, stop: threading.Event) -> None:
    """Plantings at 15, 40, 65 and 90% of the run; kills spread evenly between them."""
    plan = [(duration_s * f, "plant") for f in (0.15, 0.4, 0.65, 0.9)]
    plan += [(duration_s * (i + 1) / (kills + 1), "kill") for i in range(kills)]
    started = time.monotonic()
    for at, what in sorted(plan):
        while time.monotonic() - started < at:
            if stop.wait(0.2):
                return
        if what == "plant":
            site.plant()
            faults.planted += 2
        else:
            site.kill_worker(faults)


def act(session, site: Site, slug: str, codes: dict[str, str], rng: random.Random, tally: Tally) -> None:
    """One student's next action: a Run (a third of the time) or a Submit, of code of a kind drawn from MIX."""
    kinds, weights = zip(*MIX)
    kind = rng.choices(kinds, weights)[0]
    action = "run" if rng.random() < 1 / 3 else "submit"
    outcome = submit_and_wait(session, site.url, slug, codes[kind], tally, kind=action)
    if outcome is not None and action == "submit":
        seconds, verdict = outcome
        tally.latencies[kind].append(seconds)
        tally.verdicts[verdict] = tally.verdicts.get(verdict, 0) + 1


def make_students(site: Site, count: int) -> None:
    site.django(f"""
import json
from django.contrib.auth import get_user_model
users = get_user_model()
for i in range({count}):
    users.objects.create_user(f"student{{i:03d}}", password={PASSWORD!r})
print(json.dumps({{"ok": True}}))
""")


def run_students_with_locust(
    site: Site, slug: str, codes: dict[str, str], students: int, duration_s: float, seed: int
) -> Tally:
    import gevent
    from locust import HttpUser, between, task
    from locust.env import Environment

    tally, names, rng = Tally(), iter(range(students)), random.Random(seed)

    class Student(HttpUser):
        host = site.url
        wait_time = between(2, 6)

        def on_start(self) -> None:
            log_in(self.client, site.url, f"student{next(names):03d}", tally)

        @task
        def attempt(self) -> None:
            act(self.client, site, slug, codes, rng, tally)

    environment = Environment(user_classes=[Student])
    runner = environment.create_local_runner()
    runner.start(students, spawn_rate=students)
    gevent.sleep(duration_s)
    runner.stop()
    return tally


def run_students_with_threads(
    site: Site, slug: str, codes: dict[str, str], students: int, duration_s: float, seed: int
) -> Tally:
    """The same students on plain threads: the test suite's short soak (no gevent in a pytest process)."""
    import requests

    tally, deadline = Tally(), time.monotonic() + duration_s

    def student(i: int) -> None:
        rng, session = random.Random(seed + i), requests.Session()
        log_in(session, site.url, f"student{i:03d}", tally)
        while time.monotonic() < deadline:
            act(session, site, slug, codes, rng, tally)
            time.sleep(rng.uniform(1, 3))

    threads = [threading.Thread(target=student, args=(i,)) for i in range(students)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(duration_s + 300)
    return tally


@dataclass
class Outcome:
    tally: Tally
    faults: Faults
    submissions: int
    still_open: int
    graded_again: int
    counted_twice: int
    broker_deaths: int
    restarts: int
    damaged: int


def soak(
    problem: str,
    var: Path,
    minutes: float,
    students: int,
    kills: int,
    seed: int = 7,
    threads: bool = False,
    drain_s: float = 300.0,
) -> Outcome:
    codes, site, faults, stop = codes_for(problem), Site(problem, var), Faults(), threading.Event()
    try:
        site.start()
        site.wait_for(f"/problems/{problem}/", 300)  # published: the gate ran in the background
        make_students(site, students)
        injector = threading.Thread(target=inject, args=(site, faults, minutes * 60, kills, stop))
        injector.start()
        drive = run_students_with_threads if threads else run_students_with_locust
        tally = drive(site, problem, codes, students, minutes * 60, seed)
        stop.set()
        injector.join(120)
        drain(site, drain_s)
        return outcome(site, tally, faults)
    finally:
        stop.set()
        site.stop()


def drain(site: Site, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while (
        time.monotonic() < deadline
        and site.query("SELECT count(*) FROM submissions_submission WHERE status != 'done'")[0][0]
    ):
        time.sleep(1)


def outcome(site: Site, tally: Tally, faults: Faults) -> Outcome:
    log = (site.var / "run.log").read_text(errors="replace")
    # The standings keep each student's graded Submits per problem: a verdict recorded twice would count twice.
    counted = site.query("""
        SELECT count(*) FROM (SELECT user_id, problem_id, count(*) AS graded FROM submissions_submission
                              WHERE kind = 'submit' AND status = 'done' GROUP BY user_id, problem_id) u
        LEFT JOIN leaderboard_userproblemstate s ON s.user_id = u.user_id AND s.problem_id = u.problem_id
        WHERE s.attempts IS NULL OR s.attempts != u.graded""")[0][0]
    return Outcome(
        tally,
        faults,
        submissions=site.query("SELECT count(*) FROM submissions_submission")[0][0],
        still_open=site.query("SELECT count(*) FROM submissions_submission WHERE status != 'done'")[0][0],
        graded_again=site.query("SELECT count(*) FROM submissions_submission WHERE attempts > 1")[0][0],
        counted_twice=counted,
        broker_deaths=log.count("Unrecoverable error"),
        restarts=log.count("grading worker: exited with code"),
        damaged=len(list((site.var / "broker" / "damaged").glob("*.msg"))),
    )


def report(result: Outcome, args) -> None:
    t, f = result.tally, result.faults
    done = [s for kind in t.latencies for s in t.latencies[kind]]
    print(
        f"\n## bin/run soak: {args.minutes:g} min, {args.students} students, {f.planted} damaged messages planted, "
        f"{len(f.kills) + f.not_back} kills; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
    )
    print("| measure | value | target |")
    print("| --- | --- | --- |")
    print(f"| worker deaths caused by the broker | {result.broker_deaths} | 0: {mark(result.broker_deaths == 0)} |")
    print(f"| damaged messages set aside | {result.damaged} of {f.planted} planted | all |")
    print(f"| worker restarts (bin/supervise) | {result.restarts} | one per kill |")
    back = " / ".join(f"{s:.1f}" for s in f.kills) or "-"
    ok = f.not_back == 0 and all(s <= BACK_WITHIN_S for s in f.kills)
    print(
        f"| worker back after each kill (s) | {back}{f', {f.not_back} never' if f.not_back else ''} | "
        f"<= {BACK_WITHIN_S:g} s: {mark(ok)} |"
    )
    print(
        f"| submissions (Run and Submit) / still open after the drain | {result.submissions} / "
        f"{result.still_open} | 0 open: {mark(result.still_open == 0)} |"
    )
    print(f"| graded again after a kill (claimed more than once) | {result.graded_again} | |")
    print(
        f"| students' standings that count a verdict twice | {result.counted_twice} | 0: "
        f"{mark(result.counted_twice == 0)} |"
    )
    print(f"| Submit -> verdict, p50 / p95 (n={len(done)}) | {pct(done, 50):.2f} / {pct(done, 95):.2f} s | |")
    print(f"| verdicts | {dict(sorted(t.verdicts.items()))} | |")
    print(f"| client errors / lost | {t.errors or 0} / {len(t.lost)} | |")


def mark(ok: bool) -> str:
    return "met" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not (0.5 <= args.minutes <= 120 and 1 <= args.students <= 100 and 0 <= args.kills <= 20):
        parser.error("--minutes must be 0.5-120, --students 1-100, --kills 0-20")
    result = soak(args.problem, ROOT / "var" / "bench-soak", args.minutes, args.students, args.kills, args.seed)
    report(result, args)


if __name__ == "__main__":
    main()
