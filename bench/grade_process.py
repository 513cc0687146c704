"""Grading time per submission with the process backend (warm zygote).

Grades the reference solution of a problem N times through the same code the
workers use and prints the median and p95 of the whole grade() call and of the
sandbox round trip, plus the cold start of a fresh zygote.

    .venv/bin/python bench/grade_process.py [--problem prepend_class_token] [--runs 50]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")

from engine.grading import grade  # noqa: E402
from engine.package import load_package  # noqa: E402
from engine.testset import build_cases  # noqa: E402
from sandbox.backends.process import ProcessSandbox  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--runs", type=int, default=50)
    options = parser.parse_args()
    package = load_package(ROOT / "problems" / options.problem)
    code = package.solution

    started = time.perf_counter()
    sandbox = ProcessSandbox()
    cases = build_cases(package, sandbox)
    first = grade(code, package.spec(), cases, sandbox)
    cold_ms = (time.perf_counter() - started) * 1000
    assert first.verdict == "accepted", first.verdict

    totals, trips = [], []
    for _ in range(options.runs):
        report = grade(code, package.spec(), cases, sandbox)
        assert report.verdict == "accepted"
        totals.append(report.time_ms)
        trips.append(report.sandbox["round_trip_ms"])
    sandbox.close()
    print(f"problem {options.problem}: {len(cases)} tests, {options.runs} warm runs, process backend")
    print(f"cold start (new zygote + first grade): {cold_ms:.1f} ms")
    print(f"grade() per submission:   p50 {statistics.median(totals):.1f} ms   p95 {percentile(totals, 0.95):.1f} ms")
    print(f"sandbox round trip:       p50 {statistics.median(trips):.1f} ms   p95 {percentile(trips, 0.95):.1f} ms")
    print(f"submissions per second (one worker process): {1000 / statistics.median(totals):.1f}")


if __name__ == "__main__":
    main()
