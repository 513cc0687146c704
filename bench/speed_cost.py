"""What speed figures cost and how far they move, through the worker, before and after, in one run (issue 45).

For each side (``--before``, a git ref, default ``main``; and this checkout), in a database of its own: a
grading worker and the speed worker (not niced, unlike compose's, so that it finishes on a shared machine)
started from that side's tree with the Docker sandbox built from it, PostgreSQL and Redis.  Then, through
``submit_solution`` as the site does, one Submit at a time, each graded and timed before the next is sent:

  1. the population: 15 students each submit one accepted solution of ``layer_norm`` (the reference with 0-64
     extra passes over its input, a loop over rows, a loop over elements: ``bench/speed_stability.py``'s);
  2. the subject, a vectorised solution written otherwise than the reference, submitted ``--submits`` times
     by one student, the same code each time (what a class does: the same solution sent again);
  3. the subject written ``--submits`` ways that Python reads differently (a different unused constant each),
     each by another student: every one a fresh measurement, which is what the spread is about;
  4. the same ``--submits`` ways sent by one student, one after the other (a student polishing a solution).

Every figure is measured by that side's speed worker under the same conditions.  Printed per side: the CPU of
the speed worker's process tree and its sandbox containers' cgroups per accepted Submit (amortised over all
of them, and per Submit actually timed), how many of each step's Submits were timed, and the spread, in
percentile points, of each step's figures among the population's (``engine.speed.percentile``, the site's own,
with the 15 students of step 1 as the others: the subjects of step 3 do not rank against one another).

    .venv/bin/python bench/speed_cost.py [--before main] [--submits 10]

Targets (issue 45): amortised CPU per accepted Submit <= 200 ms; spread <= 10 points.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.grading_cpu import (  # noqa: E402
    PYTHON,
    ContainerCPU,
    build_image,
    django_setup,
    export_tree,
    prepare,
    stop_worker,
    tree_cpu_s,
)
from bench.speed_stability import SUBJECT, population  # noqa: E402

PROBLEM = "layer_norm"


def start(tree: Path, env: dict, image: str, *queue: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *queue[1:],
            PYTHON,
            "-m",
            "celery",
            "-A",
            "judge",
            "worker",
            "-Q",
            queue[0],
            "--concurrency=1",
            "--without-mingle",
            "--without-gossip",
            "--loglevel=WARNING",
        ],
        cwd=tree,
        env=env | {"PYTHONPATH": str(tree), "SANDBOX_IMAGE": image},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for_figures(ids: list[int], timeout: float) -> None:
    from judge.submissions.models import Status, Submission

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = list(Submission.objects.filter(pk__in=ids).values_list("status", "verdict", "speed"))
        # A solution refused (a loop past the time limit on a loaded machine) gets no figure: it is no one's.
        if len(rows) == len(ids) and all(
            status == Status.DONE and (verdict != "accepted" or speed is not None) for status, verdict, speed in rows
        ):
            return
        time.sleep(0.5)
    raise SystemExit(f"not every figure came within {timeout} s")


def spread(submissions: list, population: list[float]) -> tuple[int, list]:
    """The percentile points between the fastest and the slowest figure of ``submissions`` among ``population``."""
    from engine.speed import percentile

    points = [
        percentile(s.speed.get("ratio_precise") or s.speed["ratio"], population)
        if s.speed and s.speed.get("ratio")
        else None
        for s in submissions
    ]
    shown = [p for p in points if p is not None]
    return (max(shown) - min(shown) if shown else -1), points


def side(name: str, tree: Path, image: str, env: dict, submits: int, timeout: float) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from judge.problems.models import Problem
    from judge.submissions.models import Submission
    from judge.submissions.services.intake import submit_solution
    from judge.submissions.speed import best_ratios

    connection.close()
    prepare(env, PROBLEM)
    problem = Problem.objects.get(slug=PROBLEM)
    users = get_user_model().objects
    grading = start(tree, env, image, "run,submit,rejudge")
    # At the machine's priority, not compose's nice 19: on a shared machine a niced worker waits on everyone.
    speed = start(tree, env, image, "speed")
    steps: dict[str, list[int]] = {"population": [], "same": [], "fresh": [], "polished": []}

    def send(step: str, user, code: str) -> None:  # one at a time, as a student does
        steps[step].append(submit_solution(user, problem, code).pk)
        wait_for_figures(steps[step], timeout)

    try:
        time.sleep(5)
        containers = ContainerCPU(speed.pid)
        cpu_before = tree_cpu_s(speed.pid)
        containers.begin()
        for i, code in enumerate(population().values()):
            send("population", users.create_user(f"peer{i:02d}", password="x" * 20), code)
        same_user, polisher = (
            users.create_user("subject", password="x" * 20),
            users.create_user("polisher", password="x" * 20),
        )
        for i in range(submits):
            send("same", same_user, SUBJECT)
            send("fresh", users.create_user(f"fresh{i:02d}", password="x" * 20), SUBJECT + f"\nVARIANT = {i}\n")
            send("polished", polisher, SUBJECT + f"\nPOLISHED = {i}\n")  # not any fresh student's code
        worker_s = tree_cpu_s(speed.pid) - cpu_before
        containers_s = containers.end()
        cpu_s = worker_s + containers_s
    finally:
        for worker in (grading, speed):
            stop_worker(worker)
    every = [pk for ids in steps.values() for pk in ids]
    accepted = set(Submission.objects.filter(pk__in=every, verdict="accepted").values_list("pk", flat=True))
    timed = {
        step: Submission.objects.filter(pk__in=ids, verdict="accepted", speed__has_key="code_key")
        .exclude(speed__has_key="same_code_as")
        .count()
        for step, ids in steps.items()
    }
    peers = set(Submission.objects.filter(pk__in=steps["population"]).values_list("user_id", flat=True))
    population_figures = [ratio for user_id, ratio in best_ratios(problem.pk).items() if user_id in peers]
    result = {
        "amortised": cpu_s * 1000 / len(accepted),
        "per_timing": cpu_s * 1000 / max(sum(timed.values()), 1),
        # Of it, the speed worker's process tree's and its containers' (per Submit timed, ms).
        "worker_per_timing": worker_s * 1000 / max(sum(timed.values()), 1),
        "containers_per_timing": containers_s * 1000 / max(sum(timed.values()), 1),
        "timed": timed,
        "accepted": len(accepted),
        **{
            step: spread(list(Submission.objects.filter(pk__in=steps[step]).order_by("pk")), population_figures)
            for step in ("same", "fresh", "polished")
        },
        # Each fresh figure with what made it: (precise ratio, repeats, student ms, reference ms per call).
        "fresh_figures": [
            (s.get("ratio_precise"), s.get("repeats"), s.get("student_ms"), s.get("reference_ms"))
            for s in Submission.objects.filter(pk__in=steps["fresh"]).order_by("pk").values_list("speed", flat=True)
            if s
        ],
        "population_figures": sorted(population_figures),
        "repeats": sorted(
            (speed or {}).get("repeats", 0)
            for speed in Submission.objects.filter(pk__in=every, speed__has_key="code_key")
            .exclude(speed__has_key="same_code_as")
            .values_list("speed", flat=True)
        ),
    }
    print(f"{name}: {result}", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="main")
    parser.add_argument("--submits", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait for the figures of one step")
    parser.add_argument("--database", default="judge_bench_speed_cost")
    parser.add_argument("--redis-db", type=int, default=12)
    args = parser.parse_args()
    if not 2 <= args.submits <= 30:
        parser.error("--submits must be 2-30")
    with tempfile.TemporaryDirectory(prefix="speed-cost-") as scratch:
        trees = {"before": export_tree(args.before, Path(scratch)), "after": ROOT}
        images = {name: build_image(tree) for name, tree in trees.items()}
        redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_TEST", "TEST_"))} | {
            "BENCH_DB": args.database,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.database}",
            "CELERY_BROKER_URL": redis_url,
            "REDIS_URL": redis_url,
            "SANDBOX_BACKEND": "docker",
            "MEASURE_SPEED": "1",
            "DEBUG": "0",
            "SECRET_KEY": "speed-cost-benchmark-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "JUDGE_VAR_DIR": str(Path(scratch) / "var"),
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "judge.settings",
        }
        prepare(env, PROBLEM)
        django_setup(env)
        loads = [os.getloadavg()[0]]
        results = {}
        for name in ("before", "after"):
            results[name] = side(name, trees[name], images[name], env, args.submits, args.timeout)
            loads.append(os.getloadavg()[0])
    before, after = results["before"], results["after"]
    print(
        f"\n## Speed figures through the worker ({PROBLEM}: 15 other students, the subject {args.submits} times "
        f"as it is, {args.submits} ways by as many students and by one; load average {min(loads):.1f}-"
        f"{max(loads):.1f} on {os.cpu_count()} CPUs; before = {args.before})\n"
    )
    print("| figure | before | after | after / before |")
    print("| --- | --- | --- | --- |")
    for key, label in (
        ("amortised", "CPU per accepted Submit, ms (speed worker + its containers)"),
        ("per_timing", "CPU per Submit actually timed, ms"),
        ("worker_per_timing", "of it, the speed worker's process tree, ms"),
        ("containers_per_timing", "of it, its containers, ms"),
    ):
        print(f"| {label} | {before[key]:.0f} | {after[key]:.0f} | {after[key] / before[key]:.2f} |")
    for step in ("population", "same", "fresh", "polished"):
        print(f"| Submits timed in step {step} | {before['timed'][step]} | {after['timed'][step]} | |")
    print(f"| accepted Submits | {before['accepted']} | {after['accepted']} | |")
    print(
        f"| repeats per timing, median | {statistics.median(before['repeats'] or [0])} | "
        f"{statistics.median(after['repeats'] or [0])} | |"
    )
    for key, label in (
        ("same", "spread of the same code sent again, points"),
        ("fresh", "spread of the same solution written otherwise by 10 students, points"),
        ("polished", "spread of the same solution written otherwise by one student, points"),
    ):
        print(f"| {label} | {before[key][0]} {before[key][1]} | {after[key][0]} {after[key][1]} | |")


if __name__ == "__main__":
    main()
