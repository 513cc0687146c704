"""How long one assignment's bulk download takes with 1,000 students and 30 problems, on PostgreSQL.

Fills a scratch database: 1,000 students in 10 sections of one course (and 9,000 people outside it), one
assignment of 30 published problems with a late window, 50 student extensions and a section override, and by SQL
per course student and problem a few Submits over the term (40% accepted), each with ~700 bytes of code; points by
hand on 10% of the cells. Then downloads, through Django's test client with DEBUG off, signed in as the
instructor, reading the streamed response to its end: the Submit that counts per student and problem (30,000
files and the manifest), and every Submit inside the windows. Prints per download the median and slowest wall
time, the time to the first bytes, the size, the number of files, and the peak of Python's own allocations
during one download (tracemalloc, a separate run: the zip is streamed, so it stays far below the zip's size).

    .venv/bin/python bench/bulk_download.py --database-url postgres://postgres@127.0.0.1:5432/judge_bulk

The database is dropped and created again (pass --keep to leave it, then --reuse to time it again). Target: within 10 s for the Submits that
count.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
import tracemalloc
import zipfile
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gradebook import add_adjustments, add_submissions  # noqa: E402
from bench.scale import drop_database, make_problems, make_users, recreate_database, setup_django, sql  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/judge_bulk"
CODE = '''import numpy as np


def attention(q, k, v, mask=None):
    """Scaled dot-product attention over the last two axes."""
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v


def softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)
'''


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--students", type=int, default=1_000)
    parser.add_argument("--others", type=int, default=9_000, help="people outside the course")
    parser.add_argument("--problems", type=int, default=30)
    parser.add_argument("--submits", type=int, default=4, help="Submits per course student and problem, on average")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="time a database a run with --keep left, as it is")
    return parser.parse_args()


def make_course(students: int, problems: int):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from judge.courses import services
    from judge.courses.models import Membership, Role, Section
    from judge.problems.models import Problem

    instructor = get_user_model().objects.create_user("instructor", "i@example.org", "bench password")
    course = services.create_course(instructor, "Bench course", "Term")
    sections = [Section.objects.create(course=course, name=f"Lab {i}") for i in range(10)]
    people = list(get_user_model().objects.filter(username__startswith="student").order_by("pk")[:students])
    Membership.objects.bulk_create(
        Membership(course=course, user=u, role=Role.STUDENT, section=sections[i % 10]) for i, u in enumerate(people)
    )
    start = timezone.now() - timedelta(days=60)
    due = start + timedelta(days=50)
    assignment = services.save_assignment(
        course,
        instructor,
        {
            "title": "Everything",
            "opens_at": start,
            "due_at": due,
            "closes_at": due + timedelta(days=3),
            "late_rule": "per_day",
            "late_penalty_per_day": 0.2,
        },
        list(Problem.objects.order_by("path_order")[:problems]),
    )
    for user in people[:50]:
        services.set_override(assignment, instructor, {"due_at": due + timedelta(days=2)}, "bench", student=user)
    services.set_override(assignment, instructor, {"due_at": due + timedelta(days=1)}, "bench", section=sections[0])
    return instructor, course, assignment, start


def download(client, url: str) -> tuple[float, float, int, int]:
    """(wall s, s to the first bytes, bytes, files) of one download read to its end."""
    started = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200 and response.streaming, url
    first, size, body = None, 0, io.BytesIO()
    for chunk in response.streaming_content:
        if first is None and chunk:
            first = time.perf_counter() - started
        size += len(chunk)
        body.write(chunk)
    took = time.perf_counter() - started
    files = len(zipfile.ZipFile(body).namelist())
    return took, first or took, size, files


def peak_mb(client, url: str) -> float:
    """The peak of Python's allocations while one download is made and read, the chunks dropped as they come."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    for _ in client.get(url).streaming_content:
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def main() -> None:
    args = parse_args()
    if not args.reuse:
        recreate_database(args.database_url)
    setup_django(args.database_url)
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from judge.courses.models import Adjustment, Assignment
    from judge.submissions.models import Submission

    try:
        if args.reuse:
            assignment = Assignment.objects.select_related("course", "course__created_by").get()
            instructor, course = assignment.course.created_by, assignment.course
        else:
            call_command("migrate", verbosity=0)
            make_problems(args.problems)
            make_users(args.students + args.others)
            instructor, course, assignment, start = make_course(args.students, args.problems)
            add_submissions(course.pk, args.students, args.others, args.submits, start)
            sql(
                """UPDATE submissions_submission s SET code = %(code)s || '# ' || s.id FROM courses_membership m
                   WHERE m.user_id = s.user_id AND m.course_id = %(course)s""",
                {"code": CODE, "course": course.pk},
            )
            add_adjustments(course, 0.1)
            sql("VACUUM ANALYZE")
        adjusted = Adjustment.objects.count()
        print(
            f"PostgreSQL {connection.cursor().connection.info.server_version}; {args.students:,} students in the "
            f"course, {args.others:,} outside; one assignment of {args.problems} problems; "
            f"{Submission.objects.count():,} submissions; {adjusted:,} points by hand; {args.runs} runs each; "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        client = Client()
        client.force_login(instructor)
        url = reverse("assignment-download", args=[course.pk, assignment.pk])
        print(f"{'':34} {'p50 s':>7} {'max s':>7} {'first s':>8} {'MB':>7} {'files':>8} {'peak MB':>8}")
        for label, wanted in (("the Submits that count", url), ("every Submit inside the windows", url + "?every=1")):
            runs = [download(client, wanted) for _ in range(args.runs)]
            took = [r[0] for r in runs]
            print(
                f"{label:34} {statistics.median(took):7.2f} {max(took):7.2f} "
                f"{statistics.median(r[1] for r in runs):8.2f} {runs[0][2] / 1e6:7.1f} {runs[0][3]:8,} "
                f"{peak_mb(client, wanted):8.1f}   load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    finally:
        if not args.keep and not args.reuse:
            drop_database(args.database_url)


if __name__ == "__main__":
    main()
