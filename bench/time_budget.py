"""What an infinite loop costs a worker, now that a submission stops at its first timeout.

For the Docker pool and the process sandbox, runs a 13-test job whose function is
``while True: pass`` (2 s per test, as the problems have) and prints the worker's
wall time per such submission: the whole ``sandbox.run`` call, from taking a
container to returning the events, median and max of ``--runs``.  Target: at most
the per-test limit + 0.2 s.  Side by side, what the old behaviour cost: every test
ran to its own limit, 13 x limit (computed, not measured: nothing keeps it).

After a timeout the Docker pool replaces the container.  That must stay off the
worker's clock: the replacement starts in the background, and the next submission
takes the pool's other container.  So after each loop the benchmark also grades a
correct one-test submission and prints its round trip next to the same submission
when no loop came before.

    .venv/bin/python bench/time_budget.py [--runs 5] [--limit 2.0] [--image judge-sandbox:latest]

Needs a running Docker engine and the sandbox image for the Docker rows (they are
skipped otherwise); the process rows need nothing.  No Django, no database.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from sandbox.backends.base import Job, JobTest, Sandbox  # noqa: E402

TESTS = 13
LOOP = "def f(x):\n    while True:\n        pass\n"
CORRECT = "def f(x):\n    return x * 2\n"
TARGET_OVER_LIMIT_S = 0.2


def npy(array) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array, dtype=np.float64))
    return buffer.getvalue()


def job(code: str, tests: int, limit_s: float) -> Job:
    cases = [JobTest(f"t{i}", {"x": npy(np.full((4, 8), float(i)))}) for i in range(tests)]
    return Job(code, "f", ["x"], cases, limit_s, 256)


def timed(sandbox: Sandbox, work: Job) -> tuple[float, list[dict]]:
    started = time.monotonic()
    result = sandbox.run(work)
    return time.monotonic() - started, result.events


def measure(sandbox: Sandbox, runs: int, limit_s: float) -> dict:
    loop, correct = job(LOOP, TESTS, limit_s), job(CORRECT, 1, limit_s)
    for _ in range(3):
        timed(sandbox, correct)  # warm
    quiet = [timed(sandbox, correct)[0] for _ in range(max(5, runs))]
    loops, after, refills = [], [], []
    for _ in range(runs):
        wall, events = timed(sandbox, loop)
        ended = time.monotonic()
        if [e.get("outcome") for e in events] != ["timeout"]:
            raise SystemExit(f"{sandbox.name}: expected one timeout event, got {events!r:.300}")
        loops.append(wall)
        wall, events = timed(sandbox, correct)
        if events[0].get("outcome") != "returned":
            raise SystemExit(f"{sandbox.name}: the submission after a loop got {events!r:.300}")
        after.append(wall)
        if hasattr(sandbox, "wait_until_full"):
            sandbox.wait_until_full()  # the loop's container replaced: how long that took, off the clock
            refills.append(time.monotonic() - ended)
    return {"loops": loops, "after": after, "quiet": quiet, "refills": refills}


def report(name: str, figures: dict, limit_s: float) -> None:
    loops = figures["loops"]
    median = statistics.median(loops)
    old = TESTS * limit_s
    refill = f"{statistics.median(figures['refills']):.2f}" if figures["refills"] else "-"
    verdict = "met" if median <= limit_s + TARGET_OVER_LIMIT_S else "MISSED"
    print(
        f"{name:<22} {median:>8.3f} {max(loops):>8.3f} {median - limit_s:>+9.3f}  {verdict:<6} "
        f"{old:>8.1f} {old / median:>7.1f}x "
        f"{statistics.median(figures['quiet']) * 1000:>9.1f} {statistics.median(figures['after']) * 1000:>9.1f} "
        f"{refill:>9}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="loop submissions per backend")
    parser.add_argument("--limit", type=float, default=2.0, help="the per-test time limit, seconds")
    parser.add_argument("--image", default=os.environ.get("SANDBOX_IMAGE", "judge-sandbox:latest"))
    parser.add_argument("--pool-size", type=int, default=2, help="the Docker pool's size (the worker's default)")
    options = parser.parse_args()

    from sandbox.backends import docker as docker_backend
    from sandbox.backends.process import ProcessSandbox

    print(
        f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
        f"{TESTS} tests of `while True: pass`, limit {options.limit:g} s per test, {options.runs} runs"
    )
    print(
        f"{'backend':<22} {'p50 s':>8} {'max s':>8} {'p50-limit':>9}  {'target':<6} "
        f"{'old s':>8} {'old/new':>8} {'ok ms':>9} {'ok+loop':>9} {'refill s':>9}"
    )
    backends = []
    if docker_backend.available(options.image):
        backends.append(
            (
                f"docker pool ({options.pool_size})",
                lambda: docker_backend.DockerSandbox(image=options.image, pool_size=options.pool_size),
            )
        )
    else:
        print(f"(no Docker engine or no image {options.image}: Docker rows skipped)")
    backends.append(("process", ProcessSandbox))
    for name, make in backends:
        sandbox = make()
        try:
            if isinstance(sandbox, docker_backend.DockerSandbox):
                sandbox.wait_until_full()
            report(name, measure(sandbox, options.runs, options.limit), options.limit)
        finally:
            sandbox.close()
    print(
        f"p50/max s: the worker's wall time per loop submission (sandbox.run, taking a container included);\n"
        f"target: p50 <= limit + {TARGET_OVER_LIMIT_S} s.  old s: the behaviour before the stop, every test to its "
        f"limit ({TESTS} x limit).\nok ms: a correct 1-test submission's sandbox.run, p50, with no loop before it; "
        f"ok+loop: the same right after each loop\n(in Docker the loop's container is being replaced meanwhile, "
        f"in the background).\nrefill s: from the loop's return until the pool was full again "
        f"(the replacement container started and answered), p50."
    )


if __name__ == "__main__":
    main()
