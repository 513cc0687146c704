"""Storing a published test set in PostgreSQL: its arrays bound as escaped text against sent as bytes.

Gates a few packaged problems in the process sandbox as publishing does (the gate, the pool of secret draws,
the speed benchmark), then stores each one's test set (``judge.authoring.gate_runs.store_test_set``: cases,
what each known-wrong solution returned, benchmark draws) ``--runs`` times each way, the two ways alternating,
into a scratch database, and prints the medians, their ratio and the tables' size on disk.

    .venv/bin/python bench/store_test_set.py [--runs 5] [--problems causal_mask,layer_norm,...] [--compression pglz]

The arrays' columns are compressed with LZ4 (migration problems/0008); ``--compression pglz`` measures
PostgreSQL's default instead.

The database (``--database-url``, default judge_store) is dropped and created again by this script.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import drop_database, recreate_database, setup_django  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/judge_store"
DEFAULT_PROBLEMS = "causal_mask,layer_norm,split_heads,image_to_patches,layer_norm_backward,multi_head_attention"


def gated(slug: str, sandbox):
    """The outcome publishing stores for the packaged ``slug``, built on the packaged references."""
    from django.conf import settings

    from engine.gate import run_gate
    from engine.package import load_package
    from engine.pool import add_pool
    from engine.speed import BENCH_DRAWS, add_benchmark
    from judge.authoring.gate_runs import secret_seeds

    package = load_package(ROOT / "problems" / slug)
    solved = {name: load_package(ROOT / "problems" / name).solution for name in package.problem.builds_on}
    outcome = run_gate(package, sandbox, settings.MAX_OUTPUT_BYTES, solved=solved)
    assert outcome.passed, f"{slug}: the gate failed"
    add_pool(outcome, package, sandbox, secret_seeds(), settings.MAX_OUTPUT_BYTES, solved)
    add_benchmark(outcome, package, sandbox, secret_seeds(BENCH_DRAWS), settings.MAX_OUTPUT_BYTES)
    return package, outcome


def megabytes(outcome) -> float:
    cases = outcome.cases + outcome.pool
    arrays = sum(
        len(c.expected) + len(c.fd_expected or b"") + sum(len(v) for v in c.array_inputs().values())
        for c in cases + outcome.benchmark
    )
    wrong = sum(len(k.output or b"") for c in cases for k in c.known_wrong)
    return (arrays + wrong) / 1e6


def table_megabytes() -> float:
    """What the tables that hold a test set's arrays take on disk now (their TOAST tables and indexes too)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sum(pg_total_relation_size(t))::bigint FROM unnest(ARRAY['problems_testcase', "
            "'problems_benchmarkcase', 'problems_knownwrongoutcome']::regclass[]) t"
        )
        return cursor.fetchone()[0] / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--problems", default=DEFAULT_PROBLEMS)
    parser.add_argument("--runs", type=int, default=5, help="stores of each test set, each way")
    parser.add_argument("--compression", choices=["lz4", "pglz"], default="lz4")
    args = parser.parse_args()
    recreate_database(args.database_url)
    setup_django(args.database_url)
    from django.core.management import call_command

    from judge.authoring import gate_runs
    from judge.lib.binary_rows import binary_parameters
    from judge.problems.models import Problem, TestSet
    from sandbox.backends.process import ProcessSandbox

    call_command("migrate", verbosity=0)
    if args.compression == "pglz":
        call_command("migrate", "problems", "0007", verbosity=0)  # before the arrays were given LZ4
    ways = {"as text": contextlib.nullcontext, "as bytes": binary_parameters}
    times: dict[str, list[float]] = {way: [] for way in ways}
    size = 0.0
    try:
        with ProcessSandbox() as sandbox:
            outcomes = [gated(slug, sandbox) for slug in args.problems.split(",")]
        total = sum(megabytes(outcome) for _, outcome in outcomes)
        print(f"{len(outcomes)} test sets, {total:.0f} MB of arrays together")
        problems = [
            Problem.objects.create(
                slug=package.slug,
                title=package.slug,
                statement_md="-",
                starter_code="",
                solution_code="",
                package_hash="-",
                path_order=i,
            )
            for i, (package, _) in enumerate(outcomes)
        ]
        for run in range(args.runs):
            for way in list(ways) if run % 2 == 0 else list(ways)[::-1]:
                gate_runs.binary_parameters = ways[way]  # what store_test_set binds with
                started = time.perf_counter()
                for problem, (package, outcome) in zip(problems, outcomes):
                    gate_runs.store_test_set(problem, package, outcome)
                times[way].append(time.perf_counter() - started)
                size = size or table_megabytes()
                TestSet.objects.all().delete()
        for way, seconds in times.items():
            print(f"  {way:9} median {statistics.median(seconds):6.2f} s  ({', '.join(f'{s:.2f}' for s in seconds)})")
        ratio = statistics.median(times["as text"]) / statistics.median(times["as bytes"])
        print(f"compressed with {args.compression}: {size:.0f} MB on disk")
        print(
            f"as bytes: {ratio:.2f}x as fast ({total / statistics.median(times['as bytes']):.0f} MB/s against "
            f"{total / statistics.median(times['as text']):.0f} MB/s)"
        )
    finally:
        gate_runs.binary_parameters = binary_parameters
        drop_database(args.database_url)


if __name__ == "__main__":
    main()
