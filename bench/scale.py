"""How the standings pages and recording a verdict grow with the data, on PostgreSQL.

Fills a scratch PostgreSQL database with N students and 30 published problems,
then, for each size M, adds submissions by SQL (generate_series) up to M,
rebuilds the standings (``manage.py rebuild_standings``), and measures through
Django's test client with DEBUG off: the leaderboard (first page, a deep page,
this month, this week, signed in with the viewer's rank and neighbours, a
search), the problem list and a profile; and the cost of ``record_verdict``
against the bare UPDATE it was before the standings were kept with it.

    .venv/bin/python bench/scale.py --database-url postgres://postgres@127.0.0.1:5432/judge_scale

The database is dropped and created again by this script (pass --keep to leave
it afterwards). Submissions are skewed as in a real class: a few students and the
first problems of the path get most of them; 35% are accepted; they span 180 days.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/judge_scale"
TAGS = ["attention", "embeddings", "softmax", "masking", "normalisation", "heads", "positions", "patches"]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--sizes", default="10000,100000,1000000", help="submission counts M, ascending")
    parser.add_argument("--problems", type=int, default=30)
    parser.add_argument("--runs", type=int, default=40, help="requests per page and size")
    parser.add_argument("--verdicts", type=int, default=200, help="verdicts recorded per size and way")
    parser.add_argument("--keep", action="store_true", help="leave the database when done")
    return parser.parse_args()


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise SystemExit(f"{url}: bench/scale.py measures PostgreSQL; give a postgres:// URL")
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    parts = urlparse(url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}"')


def setup_django(url: str) -> None:
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "testserver",
            "SANDBOX_BACKEND": "process",
            "LOG_LEVEL": "WARNING",
            "JUDGE_VAR_DIR": os.environ.get("JUDGE_VAR_DIR") or tempfile.mkdtemp(prefix="judge-scale-"),
            "DJANGO_SETTINGS_MODULE": "judge.settings",
            "JUDGE_PLAIN_HTTP": "1",
        }
    )
    import django

    django.setup()


def make_problems(count: int) -> None:
    from judge.problems.models import Problem, TestSet

    for i in range(count):
        problem = Problem.objects.create(
            slug=f"problem_{i:02}",
            title=f"Problem {i}",
            difficulty=("easy", "medium", "hard")[i % 3],
            tags=[TAGS[i % len(TAGS)], TAGS[(i * 3 + 1) % len(TAGS)]],
            statement_md="-",
            starter_code="",
            solution_code="",
            package_hash="-",
            path_order=i,
            published=True,
        )
        test_set = TestSet.objects.create(problem=problem, version="v1")
        Problem.objects.filter(pk=problem.pk).update(current_test_set=test_set)


def make_users(count: int) -> None:
    sql(
        """INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,
                                  is_active, date_joined)
           SELECT '!', false, 'student' || g, '', '', '', false, true, now() - interval '200 days'
           FROM generate_series(1, %s) g""",
        [count],
    )


# The columns the fill sets; every other column of a submission gets its field's default.
FILLED = {
    "user_id": "u.first + g.un",
    "problem_id": "p.id",
    "test_set_id": "p.current_test_set_id",
    "kind": "CASE WHEN g.k < 0.08 THEN 'run' ELSE 'submit' END",
    "code": "'import numpy as np'",
    "status": "'done'",
    "verdict": "CASE WHEN g.r < 0.35 THEN 'accepted' WHEN g.r < 0.8 THEN 'wrong_answer' "
    "WHEN g.r < 0.93 THEN 'runtime_error' ELSE 'time_limit_exceeded' END",
    "grading_ms": "12.5",
    "created_at": "now() - g.t * interval '180 days'",
    "enqueued_at": "now() - g.t * interval '180 days'",
    "finished_at": "now() - g.t * interval '180 days'",
    "attempts": "1",
}


def add_submissions(count: int, users: int) -> None:
    """``count`` more graded submissions: students and problems skewed towards the first ones."""
    from django.db import connection

    from judge.submissions.models import Submission

    columns, values, params = [], [], {"users": users, "count": count}
    for field in Submission._meta.concrete_fields:
        if field.primary_key:
            continue
        columns.append(connection.ops.quote_name(field.column))
        if field.column in FILLED:
            values.append(FILLED[field.column])
        else:
            params[field.column] = field.get_db_prep_save(field.get_default(), connection)
            values.append(f"%({field.column})s")
    with indexes_dropped("submissions_submission"):
        _fill(columns, values, params)


def _fill(columns: list[str], values: list[str], params: dict) -> None:
    sql(
        f"""WITH p AS (SELECT row_number() OVER (ORDER BY path_order) AS n, id, current_test_set_id
                       FROM problems_problem WHERE published),
                 u AS (SELECT min(id) AS first FROM auth_user),
                 g AS (SELECT 1 + floor((SELECT count(*) FROM p) * power(random(), 1.5))::int AS pn,
                              floor(%(users)s * power(random(), 2))::int AS un, random() AS r, random() AS t,
                              random() AS k
                       FROM generate_series(1, %(count)s))
            INSERT INTO submissions_submission ({", ".join(columns)})
            SELECT {", ".join(values)} FROM g JOIN p ON p.n = g.pn CROSS JOIN u""",
        params,
    )


@contextlib.contextmanager
def indexes_dropped(table: str):
    """Bulk loading is several times quicker into a table without its secondary indexes; they are made again."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT indexname, indexdef FROM pg_indexes i WHERE tablename = %s AND NOT EXISTS (
                              SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)""",
            [table],
        )
        indexes = cursor.fetchall()
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET maintenance_work_mem = '256MB'")
            for _, definition in indexes:
                cursor.execute(definition)


def sql(statement: str, params=None) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def percentiles(timings: list[float]) -> tuple[float, float]:
    return statistics.median(timings), statistics.quantiles(timings, n=20)[-1]


def time_page(client, url: str, runs: int) -> tuple[float, float]:
    for _ in range(3):
        assert client.get(url).status_code == 200, url
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, url
    return percentiles(timings)


def time_verdicts(count: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Record ``count`` verdicts of fresh submissions by random students both ways, alternating so that
    both see the same load: the compare-and-set UPDATE alone (what ``record_verdict`` was before the
    standings were kept with it), and ``record_verdict``. Each in its own transaction."""
    from django.utils import timezone

    from engine.grading import GradeReport
    from engine.verdicts import Verdict
    from judge.grading.recording import record_verdict
    from judge.problems.models import Problem
    from judge.submissions.models import Status, Submission

    problems = list(Problem.objects.filter(published=True).values_list("pk", "current_test_set_id"))
    user_ids = list(Submission.objects.order_by("?").values_list("user_id", flat=True)[: 2 * count])
    made = []
    for i, user_id in enumerate(user_ids):
        problem_id, test_set_id = problems[i % len(problems)]
        made.append(
            Submission(
                user_id=user_id,
                problem_id=problem_id,
                test_set_id=test_set_id,
                code="x",
                status=Status.RUNNING,
                claim=uuid.uuid4(),
            )
        )
    made = Submission.objects.bulk_create(made)
    before, after = [], []
    for i, submission in enumerate(made):
        report = GradeReport(Verdict.ACCEPTED if i % 6 < 2 else Verdict.WRONG_ANSWER)
        started = time.perf_counter()
        if i % 2:
            assert record_verdict(submission.pk, submission.claim, report)
            after.append((time.perf_counter() - started) * 1000)
        else:
            assert (
                Submission.objects.filter(pk=submission.pk, claim=submission.claim, status=Status.RUNNING).update(
                    status=Status.DONE,
                    verdict=report.verdict,
                    message=report.message,
                    results=[],
                    grading_ms=report.time_ms,
                    sandbox=report.sandbox,
                    finished_at=timezone.now(),
                    claim=None,
                )
                == 1
            )
            before.append((time.perf_counter() - started) * 1000)
    return percentiles(before), percentiles(after)


def measure(size_label: str, runs: int, verdicts: int) -> dict[str, tuple[float, float]]:
    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from django.test import Client

    from judge.standings.models import UserTotals
    from judge.standings.ranking import board
    from judge.submissions.models import Submission

    total = board().total
    deep_page = max(1, total // 50 // 2)
    middle = UserTotals.objects.order_by("-solved", "reached_at", "user_id").values_list("user_id", flat=True)[
        total // 2
    ]
    viewer = get_user_model().objects.get(pk=middle)
    busiest = get_user_model().objects.get(
        pk=Submission.objects.values("user_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .values_list("user_id", flat=True)[0]
    )
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(viewer)
    pages = [
        ("leaderboard, first page", anonymous, "/leaderboard/"),
        ("leaderboard, a deep page (the middle)", anonymous, f"/leaderboard/?page={deep_page}"),
        ("leaderboard, this month", anonymous, "/leaderboard/?window=month"),
        ("leaderboard, this week", anonymous, "/leaderboard/?window=week"),
        ("leaderboard, signed in: rank, neighbours", signed_in, "/leaderboard/"),
        ("leaderboard, the page with me", signed_in, "/leaderboard/?page=me"),
        ("leaderboard, search a name", anonymous, f"/leaderboard/?q={viewer.username}"),
        ("problem list, signed in, no cache", signed_in, "/"),
        ("profile of a ranked student", anonymous, f"/accounts/users/{viewer.username}/"),
        ("profile of the student with most history", anonymous, f"/accounts/users/{busiest.username}/"),
    ]
    results = {}
    for label, client, url in pages:
        results[label] = time_page(client, url, runs)
        print(
            f"  {size_label:>6} {label:<44} p50 {results[label][0]:7.2f} ms  p95 {results[label][1]:7.2f} ms",
            flush=True,
        )
    labels = ("record_verdict, the UPDATE alone (before)", "record_verdict with the standings")
    for label, figures in zip(labels, time_verdicts(verdicts)):
        results[label] = figures
        print(f"  {size_label:>6} {label:<44} p50 {figures[0]:7.2f} ms  p95 {figures[1]:7.2f} ms", flush=True)
    return results


def human(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else f"{n // 1000}k" if n >= 1000 else str(n)


def main() -> None:
    args = parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    recreate_database(args.database_url)
    setup_django(args.database_url)
    from django.core.management import call_command
    from django.db import connection

    from judge.standings.services import rebuild_standings
    from judge.submissions.models import Submission

    call_command("migrate", verbosity=0)
    make_problems(args.problems)
    started = time.perf_counter()
    make_users(args.users)
    print(
        f"PostgreSQL {connection.cursor().connection.info.server_version}; {args.users:,} students in "
        f"{time.perf_counter() - started:.1f} s; {args.problems} problems; {args.runs} requests per page",
        flush=True,
    )
    table: dict[str, dict[int, tuple[float, float]]] = {}
    loads: list[float] = []  # the machine's load average after each size: the figures move with it
    have = 0
    try:
        for size in sizes:
            started = time.perf_counter()
            add_submissions(size - have, args.users)
            have = Submission.objects.count()
            filled = time.perf_counter() - started
            started = time.perf_counter()
            counts = rebuild_standings()
            rebuilt = time.perf_counter() - started
            sql("VACUUM ANALYZE")
            print(
                f"M = {have:,}: filled in {filled:.1f} s, standings rebuilt in {rebuilt:.1f} s "
                f"({counts['UserTotals']:,} ranked students, {counts['UserProblemState']:,} states)",
                flush=True,
            )
            for label, figures in measure(human(size), args.runs, args.verdicts).items():
                table.setdefault(label, {})[size] = figures
            loads.append(os.getloadavg()[0])
            have = Submission.objects.count()
    finally:
        if not args.keep:
            drop_database(args.database_url)
    print()
    print(
        f"p50 / p95 in ms, {args.users:,} students, {args.problems} problems, M submissions; "
        f"load average after each size: {', '.join(f'{load:.1f}' for load in loads)} on {os.cpu_count()} CPUs:"
    )
    print("| measurement | " + " | ".join(f"M = {human(s)}" for s in sizes) + " |")
    print("| --- | " + " | ".join("---" for _ in sizes) + " |")
    for label, by_size in table.items():
        cells = [f"{by_size[s][0]:.1f} / {by_size[s][1]:.1f}" if s in by_size else "" for s in sizes]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
