"""What an idle embedded worker costs: CPU of each of bin/run's workers with nothing to do, before and after.

Each side is a tree of the code: ``--before`` (a git ref, exported with ``git archive``) and this checkout.  Each
side's workers are started as that tree's bin/run starts them (its command lines and their environment, read from
its bin/run), from that tree, on the embedded default (file-system broker, SQLite, a scratch var directory, the
process sandbox), one at a time; the sides alternate, so a change in the machine's load falls on both.  What a
worker costs is the CPU of its process tree (pool children and the beat's process included) per second of
idling, the median of ``--rounds`` measurements.  A worker that bin/run starts several of (the grading workers,
``WORKERS``, 2 by default) is measured once; the last line counts each as many times as bin/run starts it.

    .venv/bin/python bench/idle_worker.py --before REF [--seconds 20] [--rounds 3]

Without ``--before`` only this tree is measured.  Target (issue 45): every idle embedded worker <= 5 ms of CPU per
second.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
WORKERS = 2  # bin/run's default WORKERS

sys.path.insert(0, str(ROOT))
from bench.grading_cpu import export_tree  # noqa: E402


@dataclass(frozen=True)
class Worker:
    name: str  # "grading", "maintenance", "speed"
    env: dict[str, str]  # the VAR=value that bin/run sets on its line
    args: list[str]  # celery's arguments after ``worker``
    count: int  # how many of it bin/run starts


def bin_run_workers(tree: Path) -> list[Worker]:
    """The Celery workers the tree's bin/run starts: each ``bin/supervise NAME -- [env V=x ...] [nice -n N] celery
    -A judge worker ...`` line; one inside a ``for`` loop over ``WORKERS`` is started that many times."""
    found = []
    looping = False
    for line in (tree / "bin" / "run").read_text().splitlines():
        looping = (looping or line.lstrip().startswith("for ")) and line.strip() != "done"
        if "bin/supervise" not in line or "celery -A judge worker" not in line:
            continue
        words = shlex.split(line.split(" -- ", 1)[1].rstrip("& "), posix=True)
        env = dict(word.split("=", 1) for word in words if re.fullmatch(r"[A-Z_]+=.*", word))
        args = words[words.index("worker") + 1 :]
        args = [a.replace("${WORKERS:-2}", str(WORKERS)) for a in args if not a.startswith("--loglevel")]
        if "-n" in args:  # bin/run's names have $n and %h in them; the scratch run needs none
            del args[args.index("-n") : args.index("-n") + 2]
        found.append(Worker(args[args.index("-Q") + 1].split(",")[0], env, args, WORKERS if looping else 1))
    return [Worker("grading" if w.name == "run" else w.name, w.env, w.args, w.count) for w in found]


def tree_cpu_s(session: int) -> float:
    """CPU of every thread of every process in the worker's session, from each thread's schedstat (nanoseconds):
    /proc's clock ticks count 10 ms at a time, a fifth of what a worker spends in 20 s."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[3]) != session:  # the session id
                continue
            total += sum(int(t.read_text().split()[0]) for t in stat.parent.glob("task/*/schedstat"))
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def idle_cost(tree: Path, worker: Worker, seconds: float, settle: float) -> float:
    with tempfile.TemporaryDirectory() as var:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")}
        env |= {"JUDGE_VAR_DIR": var, "SANDBOX_BACKEND": "process", "PYTHONPATH": str(tree)} | worker.env
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=tree, env=env, check=True)
        process = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "celery",
                "-A",
                "judge",
                "worker",
                *worker.args,
                "--loglevel=WARNING",
                f"--schedule={var}/beat",
            ],
            cwd=tree,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(settle)
            before = tree_cpu_s(process.pid)
            time.sleep(seconds)
            return (tree_cpu_s(process.pid) - before) / seconds * 1000
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", help="git ref of the code to compare with")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--settle", type=float, default=20.0, help="seconds after the start before measuring")
    args = parser.parse_args()
    if not (1 <= args.seconds <= 300 and 1 <= args.rounds <= 10):
        parser.error("--seconds must be 1-300 and --rounds 1-10")
    with tempfile.TemporaryDirectory(prefix="idle-worker-") as scratch:
        trees = {"after": ROOT} | ({"before": export_tree(args.before, Path(scratch))} if args.before else {})
        workers = {side: {w.name: w for w in bin_run_workers(tree)} for side, tree in trees.items()}
        names = list(dict.fromkeys(name for side in workers.values() for name in side))
        costs: dict[str, dict[str, list[float]]] = {side: {name: [] for name in names} for side in trees}
        loads = []
        for round_ in range(args.rounds):
            for name in names:
                for side in sorted(trees, reverse=round_ % 2 == 1):  # "after" first, then "before", in turn
                    if name in workers[side]:
                        loads.append(os.getloadavg()[0])
                        cost = idle_cost(trees[side], workers[side][name], args.seconds, args.settle)
                        costs[side][name].append(cost)
                        print(f"round {round_ + 1} {side} {name}: {cost:.2f} ms/s", flush=True)
    print(
        f"\n## An idle embedded worker's CPU (ms per second), median of {args.rounds}; load average "
        f"{min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs; before = {args.before}\n"
    )
    sides = [side for side in ("before", "after") if side in trees]
    print("| worker | " + " | ".join(f"{side} ({describe(workers[side], names)})" for side in sides) + " | ratio |")
    print("| --- |" + " --- |" * (len(sides) + 1))
    totals = dict.fromkeys(sides, 0.0)
    for name in names:
        medians = {side: statistics.median(costs[side][name]) for side in sides if costs[side][name]}
        for side, median in medians.items():
            totals[side] += median * workers[side][name].count
        cells = [f"{medians[side]:.2f}" if side in medians else "-" for side in sides]
        ratio = f"{medians['after'] / medians['before']:.2f}" if len(medians) == 2 else ""
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")
    ratio = f"{totals['after'] / totals['before']:.2f}" if len(sides) == 2 else ""
    print("| all of bin/run's workers | " + " | ".join(f"{totals[side]:.2f}" for side in sides) + f" | {ratio} |")


def describe(workers: dict[str, Worker], names: list[str]) -> str:
    return ", ".join(f"{workers[name].count} {name}" for name in names if name in workers)


if __name__ == "__main__":
    main()
