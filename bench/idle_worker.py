"""What an idle embedded worker costs: CPU of each of bin/run's three workers with nothing to do.

Starts each worker as bin/run does (file-system broker, SQLite, a scratch var directory) twice, side by side in
one run: looking for work every poll as before (``BROKER_IDLE_WAIT_S`` = the poll) and as now (sleeping on the
queue folder up to ``BROKER_IDLE_WAIT_S`` = 1 s at a time), and prints the CPU of each worker's process tree
per second of idling, the median of ``--rounds`` measurements.

    .venv/bin/python bench/idle_worker.py [--seconds 20] [--rounds 3]

Target (issue 45): an idle embedded worker <= 5 ms of CPU per second.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
WORKERS = {  # as bin/run starts them
    "grading": ("0.05", ["-Q", "run,submit,rejudge", "--concurrency=2"]),
    "maintenance": ("0.5", ["-Q", "maintenance", "--beat", "--pool=solo"]),
    "speed": ("0.5", ["-Q", "speed", "--pool=solo"]),
}
TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu_s(session: int) -> float:
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[3]) == session:  # the session id, after state, ppid, pgrp
            total += int(fields[11]) + int(fields[12])
    return total / TICK


def idle_cost(name: str, idle_wait: str, seconds: float, settle: float) -> float:
    poll, args = WORKERS[name]
    with tempfile.TemporaryDirectory() as var:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")}
        env |= {
            "JUDGE_VAR_DIR": var,
            "SANDBOX_BACKEND": "process",
            "BROKER_POLL_S": poll,
            "BROKER_IDLE_WAIT_S": idle_wait or poll,
        }
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        worker = subprocess.Popen(
            [PYTHON, "-m", "celery", "-A", "judge", "worker", *args, "--loglevel=WARNING", f"--schedule={var}/beat"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(settle)
            before = tree_cpu_s(worker.pid)
            time.sleep(seconds)
            return (tree_cpu_s(worker.pid) - before) / seconds * 1000
        finally:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--settle", type=float, default=20.0, help="seconds after the start before measuring")
    args = parser.parse_args()
    if not (1 <= args.seconds <= 300 and 1 <= args.rounds <= 10):
        parser.error("--seconds must be 1-300 and --rounds 1-10")
    print(
        f"\n## An idle embedded worker's CPU (ms per second), median of {args.rounds}; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
    )
    print("| worker | looking every poll (before) | sleeping on the folder (now) | ratio |")
    print("| --- | --- | --- | --- |")
    totals = [0.0, 0.0]
    for name in WORKERS:
        costs = {mode: [] for mode in ("", "1.0")}
        for _ in range(args.rounds):
            for mode in costs:  # side by side, alternating
                costs[mode].append(idle_cost(name, mode, args.seconds, args.settle))
        before, now = (statistics.median(costs[mode]) for mode in ("", "1.0"))
        totals = [totals[0] + before, totals[1] + now]
        print(f"| {name} | {before:.1f} | {now:.1f} | {now / before:.2f} |")
    print(f"| all three (bin/run) | {totals[0]:.1f} | {totals[1]:.1f} | {totals[1] / totals[0]:.2f} |")


if __name__ == "__main__":
    main()
