"""A Submit's verdict with the speed worker measuring and with it stopped, on the embedded default (issues
37 and 38).

Starts ``bin/run`` itself (as ``bench/embedded_latency.py`` does: a scratch var directory, one problem, its
SQLite database and file-system broker) with speed measured, queues ``--queued`` speed measurements (each 26
timed sandbox jobs of CPU-bound code), and once the problem is published runs ``2 x --rounds`` blocks of
``--submits`` Submits of the reference solution, one at a time, ``--gap`` seconds apart, each waiting for its
verdict: in every other block the speed worker and its sandbox are stopped (SIGSTOP), in the others they
run.  Every accepted Submit queues one more measurement, so the speed worker always has work.  Alternating
blocks within one run, not two runs, because on a shared machine two runs differed more (p95 160 vs 537 ms
with no speed at all) than what is measured here.

Times: accepted -> verdict recorded (the server's, from the database's timestamps) and submit call ->
verdict seen (the driver polls the database every 20 ms), p50 / p95 / max side by side, and their ratio.
Target: p95 with speed measurements running within 10% of the same run's without them.  Grading slots are
apart by construction (the speed lane; tests/test_speed_lane_worker.py): this measures what is left, the CPU.

    .venv/bin/python bench/speed_lane.py [--submits 10] [--rounds 4] [--queued 6]

The sandbox is bin/run's own choice (``SANDBOX_BACKEND=auto``: Docker when an engine and the image are
there, else the process sandbox); set ``SANDBOX_BACKEND=process`` or ``docker`` to choose.
Stops by itself: every wait is bounded, and bin/run is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import codes_for, pct
from embedded_latency import Embedded

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 1.10

DRIVE = """
import json, time
from django.contrib.auth import get_user_model
from django.utils import timezone
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission
from judge.grading.services import enqueue_speed
from judge.submissions.services.intake import submit_solution
problem = Problem.objects.get(slug={slug!r})
users = [get_user_model().objects.get_or_create(username=f"student{{i:03}}")[0] for i in range({students})]
for _ in range({queued}):  # the speed worker busy from the start: finished Submits waiting for their figure
    queued = Submission.objects.create(user=users[0], problem=problem, test_set=problem.current_test_set,
                                       code={code!r}, kind=Kind.SUBMIT, status=Status.DONE, verdict="accepted",
                                       finished_at=timezone.now(), attempts=1)
    enqueue_speed(queued.pk)
time.sleep(1.0 if {queued} else 0)
seen, pks, first = [], [], time.monotonic()
for i in range({submits}):
    started = time.monotonic()
    pk = submit_solution(users[i % len(users)], problem, {code!r}).pk
    while not Submission.objects.filter(pk=pk, status=Status.DONE).exists():
        if time.monotonic() - started > {timeout}:
            raise SystemExit(f"no verdict for submission {{pk}} after {timeout} s")
        time.sleep(0.02)
    seen.append(time.monotonic() - started)
    pks.append(pk)
    time.sleep({gap})
took = time.monotonic() - first
rows = Submission.objects.filter(pk__in=pks)
print(json.dumps({{
    "seen": seen or [0.0], "seconds": took,
    "server": [(r.finished_at - r.created_at).total_seconds() for r in rows] or [0.0],
    "verdicts": sorted(set(rows.values_list("verdict", flat=True))),
    "measured": Submission.objects.filter(speed__isnull=False).count(),
}}))
"""


def speed_processes(root: int) -> list[int]:
    """The speed worker started under ``root`` (bin/run), and every process under it: its sandbox's zygote
    and children too, which run in sessions of their own but are still its descendants."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()  # "pid (name) state ppid ..."
        except OSError:
            continue
        parents.setdefault(int(text.rsplit(") ", 1)[1].split()[1]), []).append(int(text.split(" ", 1)[0]))

    def under(pid: int) -> list[int]:
        return [pid] + [p for child in parents.get(pid, []) for p in under(child)]

    def cmdline(pid: int) -> str:
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            return ""

    workers = [pid for pid in under(root) if "-Q speed" in cmdline(pid)]
    return [p for worker in workers for p in under(worker)]


def pause_speed(site: Embedded, paused: bool) -> int:
    """Stop (SIGSTOP) or let go on (SIGCONT) the speed worker and its sandbox; how many processes."""
    found = speed_processes(site.process.pid)
    for pid in found:
        try:
            os.kill(pid, signal.SIGSTOP if paused else signal.SIGCONT)
        except ProcessLookupError:
            pass
    return len(found)


def blocks(args, code: str) -> dict[bool, list[dict]]:
    """One bin/run, speed measured; blocks of Submits with the speed worker running and stopped, alternating."""
    site = Embedded(args.problem, ROOT / "var" / "bench-speed-lane")
    site.env["MEASURE_SPEED"] = "1"
    found: dict[bool, list[dict]] = {False: [], True: []}
    try:
        site.start()
        site.wait_for(f"/problems/{args.problem}/", 300)  # published: the gate ran in the background
        drive = dict(slug=args.problem, students=args.students, code=code, gap=args.gap, timeout=args.timeout)
        site.django(DRIVE.format(**drive, submits=0, queued=args.queued))
        for block in range(2 * args.rounds):
            running = block % 2 == 1
            stopped = pause_speed(site, paused=not running)
            loads = os.getloadavg()[0]
            result = site.django(DRIVE.format(**drive, submits=args.submits, queued=0))
            result["load"], result["processes"] = max(loads, os.getloadavg()[0]), stopped
            found[running].append(result)
            print(
                f"block {block + 1}, speed worker {'running' if running else 'stopped'} ({stopped} processes): "
                f"server p50/p95/max {figures(result['server'])} ms, seen {figures(result['seen'])} ms, "
                f"{result['measured']} figures so far, load {result['load']:.1f}",
                flush=True,
            )
        pause_speed(site, paused=False)
        found["process_sandbox"] = "Grading with the process sandbox" in (site.var / "run.log").read_text(
            errors="replace"
        )
    finally:
        site.stop()
    return found


def figures(values: list[float]) -> str:
    return f"{pct(values, 50) * 1000:.0f} / {pct(values, 95) * 1000:.0f} / {max(values) * 1000:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--submits", type=int, default=10, help="Submits per block, one at a time")
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between a verdict and the next Submit")
    parser.add_argument("--queued", type=int, default=6, help="speed measurements queued before the first Submit")
    parser.add_argument("--rounds", type=int, default=4, help="pairs of blocks: speed worker stopped, running")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one verdict")
    args = parser.parse_args()
    if not (5 <= args.submits <= 200 and 1 <= args.rounds <= 20 and 1 <= args.students <= 50):
        parser.error("--submits must be 5-200, --rounds 1-20, --students 1-50")

    runs = blocks(args, codes_for(args.problem)["correct"])
    sandbox = "process" if runs.pop("process_sandbox") else "Docker"
    print(
        f"\n## bin/run (SQLite, file-system broker, {sandbox} sandbox), problem {args.problem}, {args.rounds} x 2 "
        f"blocks of {args.submits} Submits one at a time, {os.cpu_count()} CPUs\n"
    )
    print(
        "| Submit -> verdict | speed worker stopped: p50 / p95 / max ms | running | ratio running / stopped, "
        "p50 and p95 |"
    )
    print("| --- | --- | --- | --- |")
    for key, what in (("server", "accepted -> recorded (server)"), ("seen", "submit call -> verdict seen")):
        off = [t for r in runs[False] for t in r[key]]
        on = [t for r in runs[True] for t in r[key]]
        ratios = f"{pct(on, 50) / pct(off, 50):.2f}, {pct(on, 95) / pct(off, 95):.2f}"
        print(f"| {what} | {figures(off)} | {figures(on)} | {ratios} |")
    everything = [r for rs in runs.values() for r in rs]
    print(
        f"\nspeed figures measured by the end: {runs[True][-1]['measured']} (with --queued {args.queued} and "
        f"every accepted Submit's); verdicts {sorted({v for r in everything for v in r['verdicts']})}; "
        f"load average {statistics.fmean(r['load'] for r in everything):.1f}"
    )
    off95 = pct([t for r in runs[False] for t in r["server"]], 95)
    on95 = pct([t for r in runs[True] for t in r["server"]], 95)
    print(
        f"target: server p95 with speed running <= {TARGET_RATIO:.2f} x stopped: "
        f"{'met' if on95 <= TARGET_RATIO * off95 else 'MISSED'} ({on95 / off95:.2f})"
    )


if __name__ == "__main__":
    main()
