"""bin/run's first start: how long until every packaged problem is listed, and what the notice said meanwhile.

Migrates a fresh var directory (SQLite, as ``bin/run``), then runs ``bin/run``'s sync line
(``manage.py sync_problems --jobs N``) and, while it runs, reads twice a second what a visitor of the
problem list would see: the "N more problems are still being prepared" count and the problems listed.
At the end it prints when each problem was listed (its gate run's end, seconds after the sync started),
the count's timeline, and whether the count ever went up.

    .venv/bin/python bench/first_start.py [--jobs 2] [--var DIR]

Target (issue 37): every problem listed within 180 s of the start on 2 quiet cores; the count right
from the start and never going up.  Stops by itself: the sync is bounded by --timeout.
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
TARGET_S = 180.0


def embedded_env(var: Path) -> dict[str, str]:
    dropped = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "JUDGE_TEST", "SECRET_KEY", "DEBUG")
    return {k: v for k, v in os.environ.items() if k not in dropped} | {"JUDGE_VAR_DIR": str(var)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--var", type=Path, default=None, help="a fresh var directory (default: a new temporary one)")
    parser.add_argument("--timeout", type=float, default=1200.0)
    parser.add_argument(
        "--tree",
        type=Path,
        default=ROOT,
        help="the checkout whose sync to time (its own .venv), e.g. a worktree of an older commit, "
        "run beside this one for a side-by-side comparison",
    )
    parser.add_argument(
        "--until-listed",
        action="store_true",
        help="stop once every problem is listed, without waiting for the rest of the gates",
    )
    options = parser.parse_args()
    tree, python = options.tree.resolve(), str(options.tree.resolve() / ".venv" / "bin" / "python")
    var = options.var or Path(tempfile.mkdtemp(prefix="first-start-"))
    env = embedded_env(var)
    started = time.monotonic()
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=tree, env=env, check=True)
    print(f"var dir {var}; migrate {time.monotonic() - started:.1f} s; load {os.getloadavg()[0]:.1f}")

    os.environ.update(env)  # this process reads the same SQLite database, as the site does
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.utils import timezone

    from judge.problems.models import GateRun, Problem
    from judge.problems.queries import problems_being_prepared

    t0 = timezone.now()
    sync = subprocess.Popen(
        [python, "manage.py", "sync_problems", "--jobs", str(options.jobs)],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    expected = len([p for p in (tree / "problems").iterdir() if (p / "problem.toml").exists()])
    timeline: list[tuple[float, int, int]] = []  # (s after the start, the notice's count, problems listed)
    first_seen: dict[str, float] = {}  # slug -> when the problem list first showed it
    loads = []
    while sync.poll() is None:
        elapsed = (timezone.now() - t0).total_seconds()
        if elapsed > options.timeout or (
            options.until_listed and timeline and first_seen and not timeline[-1][1] and len(first_seen) >= expected
        ):
            sync.kill()
            sync.wait()
            print(f"stopped the sync after {elapsed:.0f} s" + ("" if options.until_listed else " (--timeout)"))
            break
        published = set(Problem.objects.filter(published=True).values_list("slug", flat=True))
        for slug in published - first_seen.keys():
            first_seen[slug] = elapsed
        seen = (elapsed, problems_being_prepared(), len(published))
        if not timeline or seen[1:] != timeline[-1][1:]:
            timeline.append(seen)
        loads.append(os.getloadavg()[0])
        time.sleep(0.5)
    if sync.returncode and sync.returncode != -9:
        sys.exit(f"sync_problems failed ({sync.returncode}):\n{sync.stderr.read()}")
    report(t0, GateRun.objects.filter(trigger="sync").select_related("problem"), timeline, loads, first_seen)


def report(t0, runs, timeline: list[tuple[float, int, int]], loads: list[float], first_seen: dict[str, float]) -> None:
    """When each problem was first listed (a problem is listed once the first part of its gate passed, and
    hidden again if the rest fails: see the gate's end), and when the last gate ended."""
    from judge.problems.models import Problem

    runs = list(runs)
    still_listed = set(Problem.objects.filter(published=True).values_list("slug", flat=True))
    never = float("inf")
    listed = sorted(
        (
            first_seen.get(run.problem.slug, never),
            run.problem.slug,
            run.problem.slug in still_listed and run.passed is not False,
        )
        for run in runs
    )
    ended = max(((run.finished_at - t0).total_seconds() for run in runs if run.finished_at), default=0.0)
    print(f"\n{'s':>7}  problem (in the order they were listed)")
    for seconds, slug, passed in listed:
        print(f"{seconds:7.1f}  {slug}{'' if passed else '  (gate failed: not listed)'}")
    print(f"\n{'s':>7}  {'notice':>6}  listed")
    for seconds, count, published in timeline:
        print(f"{seconds:7.1f}  {count:6d}  {published}")
    counts = [count for _s, count, _p in timeline]
    went_up = [(a, b) for a, b in itertools.pairwise(counts) if b > a]
    first_count = next((s for s, count, _p in timeline if count), None)
    last = listed[-1][0] if listed else 0.0
    print(
        f"\nproblems gated: {len(listed)}, failed: {sum(not p for _s, _slug, p in listed)}; "
        f"the last gate ended {ended:.1f} s after the start"
    )
    print(
        f"first listed {listed[0][0]:.1f} s, half {listed[len(listed) // 2][0]:.1f} s, "
        f"last {last:.1f} s (target {TARGET_S:.0f} s: {'met' if last <= TARGET_S else 'MISSED'})"
    )
    print(
        f"notice first counted at {first_count if first_count is None else round(first_count, 1)} s, "
        f"highest {max(counts, default=0)}; went up {len(went_up)} time(s){f': {went_up[:5]}' if went_up else ''}"
    )
    print(f"load average during the sync: mean {sum(loads) / max(len(loads), 1):.1f}, max {max(loads, default=0):.1f}")


if __name__ == "__main__":
    main()
