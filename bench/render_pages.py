"""How long the server takes to render the problem list and a problem page.

Loads the packaged problems, clones them until 100 problems are published,
adds students and graded submissions so that the list's statistics and marks
have real rows to aggregate, then renders each page many times through
Django's test client as a signed-in student (DEBUG off, no network) and prints
the median and 95th percentile.

    .venv/bin/python bench/render_pages.py                 # a throwaway SQLite database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/render_pages.py

The PostgreSQL database named there is emptied and filled by this script.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VAR = Path(os.environ.get("JUDGE_VAR_DIR") or tempfile.mkdtemp(prefix="judge-bench-"))
os.environ.update(
    {
        "JUDGE_VAR_DIR": str(VAR),
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": "testserver",
        "SANDBOX_BACKEND": os.environ.get("SANDBOX_BACKEND", "process"),
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "judge.settings",
        "JUDGE_PLAIN_HTTP": "1",
    }
)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from engine.verdicts import Verdict  # noqa: E402
from judge.authoring.sync import sync_problems  # noqa: E402
from judge.problems.models import Problem  # noqa: E402
from judge.submissions.models import Kind, Status, Submission  # noqa: E402

FIELDS = (
    "title",
    "summary",
    "difficulty",
    "tags",
    "prerequisites",
    "statement_md",
    "theory_md",
    "hints",
    "starter_code",
    "solution_code",
    "function_name",
    "params",
    "time_limit_s",
    "memory_mb",
    "rtol",
    "atol",
    "package_hash",
    "current_test_set",
)


def load(problem_count: int, students: int, submissions: int) -> tuple[object, Problem]:
    call_command("flush", "--noinput", verbosity=0)
    sync_problems()
    originals = list(Problem.objects.filter(published=True))
    if not originals:
        raise SystemExit("sync_problems published nothing; see the log above")
    clones = []
    for index in range(len(originals), problem_count):
        source = originals[index % len(originals)]
        values = {field: getattr(source, field) for field in FIELDS}
        values["title"] = f"{source.title} (variant {index})"
        clones.append(Problem(slug=f"{source.slug}_v{index}", path_order=index, published=True, **values))
    Problem.objects.bulk_create(clones)
    problems = list(Problem.objects.filter(published=True))
    users = [get_user_model().objects.create_user(f"student{i}", password=None) for i in range(students)]
    rng = random.Random(7)
    Submission.objects.bulk_create(
        Submission(
            user=rng.choice(users),
            problem=(p := rng.choice(problems)),
            test_set_id=p.current_test_set_id,
            kind=Kind.SUBMIT,
            code="import numpy as np\n",
            status=Status.DONE,
            verdict=rng.choice([Verdict.ACCEPTED, Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR]),
        )
        for _ in range(submissions)
    )
    return users[0], problems[len(problems) // 2]


def measure(client: Client, url: str, repeats: int) -> tuple[list[float], int]:
    for _ in range(5):  # warm caches: templates, rendered Markdown, formatted examples
        assert client.get(url).status_code == 200, url
    queries = []
    with connection.execute_wrapper(lambda execute, sql, *args: queries.append(sql) or execute(sql, *args)):
        client.get(url)
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return timings, len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=100)
    parser.add_argument("--students", type=int, default=50)
    parser.add_argument("--submissions", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    student, problem = load(args.problems, args.students, args.submissions)
    client = Client()
    client.force_login(student)
    print(
        f"database: {connection.vendor}; {Problem.objects.filter(published=True).count()} published problems, "
        f"{Submission.objects.count()} submissions by {args.students} students; {args.repeats} renders each"
    )
    print(f"{'page':<34} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8} {'queries':>8}")
    pages = (("problem list /", "/"), (f"problem page {problem.slug}", reverse("problem-detail", args=[problem.slug])))
    for label, url in pages:
        timings, queries = measure(client, url, args.repeats)
        p95 = statistics.quantiles(timings, n=20)[-1]
        print(
            f"{label:<34} {statistics.median(timings):>8.2f} {p95:>8.2f} {statistics.fmean(timings):>8.2f} {queries:>8}"
        )


if __name__ == "__main__":
    main()
