"""What a /metrics scrape costs as the submissions table grows, on PostgreSQL.

Every figure on /metrics but the HTTP counts is read from the database when Prometheus scrapes
(judge/monitoring/metrics.py); the graded count and the two histograms scan the finished submissions. This fills
a scratch database as bench/scale.py does (students, 30 published problems, then graded submissions by SQL up to
each size M), and times the scrape through Django's test client: median and p95 in ms, and the queries it ran,
both a full scrape and one within METRICS_CACHE_S of it (the graded figures from the cache).

    .venv/bin/python bench/metrics_scrape.py --database-url postgres://postgres@127.0.0.1:5432/judge_metrics

The database is dropped and created again (pass --keep to leave it afterwards).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import (  # noqa: E402  (the path first)
    add_submissions,
    drop_database,
    make_problems,
    make_users,
    percentiles,
    recreate_database,
    setup_django,
    sql,
)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/judge_metrics")
    parser.add_argument("--users", type=int, default=5_000)
    parser.add_argument("--sizes", default="10000,100000,1000000", help="submission counts M, ascending")
    parser.add_argument("--runs", type=int, default=20, help="scrapes per size")
    parser.add_argument("--keep", action="store_true", help="leave the database when done")
    return parser.parse_args()


def time_scrapes(runs: int, cached: bool) -> tuple[float, float, int]:
    """Median and p95 ms of a scrape, and its queries; ``cached``: the graded figures from the cache, as every
    scrape within METRICS_CACHE_S of the last full one gets them."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    client = Client()
    statements: list[str] = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    timings = []
    for _ in range(runs + 1):
        if not cached:
            cache.clear()
        statements.clear()
        started = time.perf_counter()
        with connection.execute_wrapper(count):
            response = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    median, p95 = percentiles(timings[1:])  # the first fills the cache
    return median, p95, len(statements)


def main() -> None:
    args = parse_args()
    recreate_database(args.database_url)
    setup_django(args.database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    make_problems(30)
    make_users(args.users)
    have = 0
    print(f"{'submissions':>12} {'scrape':>7} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}")
    try:
        for size in (int(s) for s in args.sizes.split(",")):
            add_submissions(size - have, args.users)
            have = size
            sql("ANALYZE submissions_submission")
            for cached in (False, True):
                median, p95, queries = time_scrapes(args.runs, cached)
                print(
                    f"{size:>12,} {'cached' if cached else 'full':>7} {median:>8.1f} {p95:>8.1f} {queries:>8}",
                    flush=True,
                )
    finally:
        if not args.keep:
            drop_database(args.database_url)


if __name__ == "__main__":
    main()
