"""What authoring costs: the publish gate per problem, and misconception diagnosis per grade.

Runs the gate on each packaged problem N times in one warm sandbox and prints
the median wall time, then grades each problem's known-wrong solutions with
and without the stored known-wrong outputs and prints the median cost of the
diagnosis per graded submission.

    .venv/bin/python bench/authoring_gate.py [--runs 5] [--backend process|docker]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")

import django  # noqa: E402

django.setup()

from engine.gate import run_gate  # noqa: E402
from engine.grading import grade  # noqa: E402
from engine.package import discover, load_package  # noqa: E402
from judge.lib.sandbox_backend import open_sandbox  # noqa: E402


def timed(function) -> tuple[float, object]:
    started = time.perf_counter()
    value = function()
    return (time.perf_counter() - started) * 1000, value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--backend", choices=("process", "docker"), default="process")
    options = parser.parse_args()
    with open_sandbox(options.backend) as sandbox:
        print(f"backend: {sandbox.name}, runs: {options.runs}")
        print(
            f"{'problem':<32} {'gate median ms':>15} {'jobs':>5} {'grade ms (plain)':>17} {'(diagnosed)':>12} {'named':>7}"
        )
        for path in discover(ROOT / "problems"):
            package = load_package(path)
            gate_ms, outcome = [], None
            for _ in range(options.runs):
                ms, outcome = timed(lambda: run_gate(package, sandbox))
                gate_ms.append(ms)
            assert outcome.passed, outcome.first_failure()
            plain = [dataclasses.replace(case, known_wrong=()) for case in outcome.cases]
            spec, plain_ms, diagnosed_ms, named = package.spec(), [], [], 0
            for _ in range(options.runs):
                for wrong in package.wrong:
                    plain_ms.append(timed(lambda: grade(wrong.code, spec, plain, sandbox))[0])
                    ms, report = timed(lambda: grade(wrong.code, spec, outcome.cases, sandbox))
                    diagnosed_ms.append(ms)
                    named += any(t.misconception.get("name") == wrong.name for t in report.tests)
            jobs = 5 + len(package.wrong)  # two generates, two reference runs, starter, each wrong solution
            print(
                f"{package.slug:<32} {statistics.median(gate_ms):>15.0f} {jobs:>5} "
                f"{statistics.median(plain_ms):>17.1f} {statistics.median(diagnosed_ms):>12.1f} "
                f"{named}/{options.runs * len(package.wrong):>3}"
            )


if __name__ == "__main__":
    main()
