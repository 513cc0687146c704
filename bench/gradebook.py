"""How long a course's gradebook takes with 1,000 students and 30 assignment problems, on PostgreSQL.

Fills a scratch database: 1,000 students in 10 sections of one course and 9,000 people outside it, 30
published problems in three assignments (with a late window, 50 student extensions and a section override),
and submissions by SQL: per course student and problem a few Submits spread over the term, most problems
solved in the end, some late, some after the close; and as many again from outside the course. Then times,
through Django's test client with DEBUG off, signed in as the instructor: the gradebook page (first page of
100 students), the CSV download (all 1,000), the live progress matrix of one assignment, and
``manage.py gradebook``; then gives points by hand (the grading desk's adjustments: overrides, bonuses and
deductions on ``--adjusted`` of the cells, 10% by default) and rubrics (two items per problem, one or both
ticked on ``--rubric`` of the cells, 20% by default) and times them all again, side by side with the ratio,
since every reader applies them through ``grades.grade_assignment``; then puts every student in a group of
``--group-size`` (3 by default) on every assignment, whose members' Submits count for each other, and times them
a third time.

    .venv/bin/python bench/gradebook.py --database-url postgres://postgres@127.0.0.1:5432/judge_gradebook

The database is dropped and created again (pass --keep to leave it). Targets: page <= 300 ms, CSV <= 2 s.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import (  # noqa: E402
    drop_database,
    indexes_dropped,
    make_problems,
    make_users,
    percentiles,
    recreate_database,
    setup_django,
    sql,
    time_page,
)

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/judge_gradebook"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--students", type=int, default=1_000)
    parser.add_argument("--others", type=int, default=9_000, help="people outside the course")
    parser.add_argument("--problems", type=int, default=30)
    parser.add_argument("--submits", type=int, default=4, help="Submits per course student and problem, on average")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--adjusted", type=float, default=0.1, help="share of (student, problem) cells adjusted")
    parser.add_argument("--rubric", type=float, default=0.2, help="share of cells with rubric items ticked")
    parser.add_argument("--group-size", type=int, default=3, help="students per group in the third round")
    parser.add_argument("--keep", action="store_true")
    return parser.parse_args()


def make_course(students: int, problems: int):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from judge.courses import services
    from judge.courses.models import Membership, Role, Section
    from judge.problems.models import Problem

    instructor = get_user_model().objects.create_user("instructor", "i@example.org", "bench password", is_staff=True)
    course = services.create_course(instructor, "Bench course", "Term")
    sections = [Section.objects.create(course=course, name=f"Lab {i}") for i in range(10)]
    people = list(get_user_model().objects.filter(username__startswith="student").order_by("pk")[:students])
    Membership.objects.bulk_create(
        Membership(course=course, user=u, role=Role.STUDENT, section=sections[i % 10]) for i, u in enumerate(people)
    )
    start = timezone.now() - timedelta(days=60)
    chosen = list(Problem.objects.order_by("path_order")[:problems])
    per = max(1, len(chosen) // 3)
    for week in range(3):
        due = start + timedelta(days=20 * (week + 1))
        assignment = services.save_assignment(
            course,
            instructor,
            {
                "title": f"Part {week + 1}",
                "opens_at": due - timedelta(days=20),
                "due_at": due,
                "closes_at": due + timedelta(days=3),
                "late_rule": "per_day",
                "late_penalty_per_day": 0.2,
                "weight": week + 1,
            },
            chosen[week * per : (week + 1) * per],
        )
        for user in people[week * 50 : (week + 1) * 50]:
            services.set_override(assignment, instructor, {"due_at": due + timedelta(days=2)}, "bench", student=user)
        services.set_override(
            assignment, instructor, {"due_at": due + timedelta(days=1)}, "bench", section=sections[week]
        )
    return instructor, course, start


def add_submissions(course_id: int, students: int, others: int, submits: int, start) -> None:
    """Per course student and problem ~``submits`` Submits over the 60 days; 40% accepted; as many again from
    people outside the course."""
    from django.db import connection

    from judge.submissions.models import Submission

    filled = {
        "user_id": "g.user_id",
        "problem_id": "g.problem_id",
        "test_set_id": "g.test_set_id",
        "kind": "'submit'",
        "code": "'import numpy as np'",
        "status": "'done'",
        "verdict": "CASE WHEN random() < 0.4 THEN 'accepted' ELSE 'wrong_answer' END",
        "grading_ms": "10",
        "created_at": "%(start)s + random() * interval '63 days'",
        "attempts": "1",
    }
    columns, values, params = [], [], {"start": start, "course": course_id, "submits": submits}
    for field in Submission._meta.concrete_fields:
        if field.primary_key:
            continue
        columns.append(connection.ops.quote_name(field.column))
        if field.column in filled:
            values.append(filled[field.column])
        else:
            params[field.column] = field.get_db_prep_save(field.get_default(), connection)
            values.append(f"%({field.column})s")
    pairs = """SELECT m.user_id, p.id AS problem_id, p.current_test_set_id AS test_set_id
               FROM courses_membership m CROSS JOIN problems_problem p WHERE m.course_id = %(course)s
               UNION ALL
               SELECT u.id, p.id, p.current_test_set_id FROM auth_user u CROSS JOIN problems_problem p
               WHERE NOT EXISTS (SELECT 1 FROM courses_membership m WHERE m.user_id = u.id) AND random() < 0.15"""
    with indexes_dropped("submissions_submission"):
        sql(
            f"""INSERT INTO submissions_submission ({", ".join(columns)})
                SELECT {", ".join(values)} FROM ({pairs}) g
                CROSS JOIN LATERAL generate_series(1, floor(random() * 2 * %(submits)s)::int + 0 * g.user_id) s
                """,
            params,
        )


def add_adjustments(course, share: float) -> int:
    """Points by hand on ``share`` of the course's (student, problem) cells: overrides, bonuses and deductions."""
    from judge.courses.models import Adjustment, AdjustmentKind, Membership, Role

    students = list(Membership.objects.filter(course=course, role=Role.STUDENT).values_list("user_id", flat=True))
    rows, n = [], 0
    for assignment in course.assignments.all():
        for problem_id in assignment.items.values_list("problem_id", flat=True):
            for user_id in students:
                n += 1
                if (n * 7919) % 1000 < share * 1000:  # spread evenly, the same cells every run
                    kind = AdjustmentKind.OVERRIDE if n % 3 == 0 else AdjustmentKind.DELTA
                    rows.append(
                        Adjustment(
                            assignment=assignment,
                            user_id=user_id,
                            problem_id=problem_id,
                            kind=kind,
                            points=0.5 if kind == AdjustmentKind.OVERRIDE else (-0.25, 0.1)[n % 2],
                            reason="bench",
                        )
                    )
    Adjustment.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def add_rubric_marks(course, share: float) -> int:
    """Two rubric items per assignment problem (+0.25, -0.5), ticked (one, or both) on ``share`` of the cells."""
    from judge.courses.models import Membership, Role, RubricItem, RubricMark

    students = list(Membership.objects.filter(course=course, role=Role.STUDENT).values_list("user_id", flat=True))
    marks, n = [], 0
    for assignment in course.assignments.all():
        for problem_id in assignment.items.values_list("problem_id", flat=True):
            good = RubricItem.objects.create(
                assignment=assignment, problem_id=problem_id, label="Vectorised", points=0.25
            )
            bad = RubricItem.objects.create(
                assignment=assignment, problem_id=problem_id, label="Mutates its input", points=-0.5, position=1
            )
            for user_id in students:
                n += 1
                if (n * 6007) % 1000 < share * 1000:
                    marks += [RubricMark(item=good, user_id=user_id)] + (
                        [RubricMark(item=bad, user_id=user_id)] if n % 4 == 0 else []
                    )
    RubricMark.objects.bulk_create(marks, batch_size=2000)
    return len(marks)


def add_groups(course, size: int) -> int:
    """Every student of the course in a group of ``size`` (by username) on every assignment."""
    from judge.courses.models import GroupFormation, GroupMember, Membership, Role, StudentGroup

    students = list(
        Membership.objects.filter(course=course, role=Role.STUDENT)
        .order_by("user__username")
        .values_list("user_id", flat=True)
    )
    made = 0
    for assignment in course.assignments.all():
        assignment.group_size, assignment.groups_formed_by = size, GroupFormation.STAFF
        assignment.save(update_fields=["group_size", "groups_formed_by"])
        teams = StudentGroup.objects.bulk_create(
            StudentGroup(assignment=assignment, code=f"B{assignment.pk}X{i}") for i in range(-(-len(students) // size))
        )
        GroupMember.objects.bulk_create(
            (
                GroupMember(group=teams[i // size], assignment=assignment, user_id=user_id)
                for i, user_id in enumerate(students)
            ),
            batch_size=2000,
        )
        made += len(teams)
    return made


def interleaved(course, work: dict, runs: int) -> None:
    """Groups off and on in turns (the same rows; only the assignments' group size changes), so that the load's
    drift falls on both alike: wall and CPU medians per reader, and their ratio."""
    from judge.courses.models import Assignment

    sizes = dict(course.assignments.values_list("pk", "group_size"))
    print("groups off and on in turns, same data: median wall ms / CPU ms, off then on; ratio of the wall medians")
    for label, one in work.items():
        timings: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _ in range(runs):
            for on in (False, True):
                for pk, size in sizes.items():
                    Assignment.objects.filter(pk=pk).update(group_size=size if on else None)
                wall, cpu = time.perf_counter(), time.process_time()
                one()
                timings[on].append(((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000))
        (w0, c0), (w1, c1) = ([statistics.median(t[i] for t in timings[on]) for i in (0, 1)] for on in (False, True))
        print(f"{label:42} {w0:8.0f} {c0:6.0f}   {w1:8.0f} {c1:6.0f}   x{w1 / w0:.2f}", flush=True)


def cost(runs: int, work) -> tuple[float, int]:
    """The median CPU time of this process (the web side: Python, the template, the ORM) and the SQL statements
    of one call. Both hardly move with the machine's load, which the wall times do ten-fold on a shared machine."""
    from django.db import connection

    statements = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):  # a request resets connection.queries; a wrapper sees them all
        work()
    timings = []
    for _ in range(runs):
        started = time.process_time()
        work()
        timings.append((time.process_time() - started) * 1000)
    return statistics.median(timings), len(statements)


def timed(runs: int, work) -> tuple[float, float]:
    work()
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        timings.append((time.perf_counter() - started) * 1000)
    return percentiles(timings)


def main() -> None:
    args = parse_args()
    recreate_database(args.database_url)
    setup_django(args.database_url)
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from judge.submissions.models import Submission

    try:
        call_command("migrate", verbosity=0)
        make_problems(args.problems)
        make_users(args.students + args.others)
        instructor, course, start = make_course(args.students, args.problems)
        add_submissions(course.pk, args.students, args.others, args.submits, start)
        sql("VACUUM ANALYZE")
        print(
            f"PostgreSQL {connection.cursor().connection.info.server_version}; {args.students:,} students in the "
            f"course, {args.others:,} outside; {args.problems} problems in 3 assignments; "
            f"{Submission.objects.count():,} submissions; {args.runs} runs each; load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        client = Client()
        client.force_login(instructor)
        assignment = course.assignments.first()
        rows = {
            "gradebook page (100 of 1,000 students)": lambda: time_page(
                client, reverse("course-gradebook", args=[course.pk]), args.runs
            ),
            "gradebook CSV (1,000 students)": lambda: time_page(
                client, reverse("course-gradebook-csv", args=[course.pk]), args.runs
            ),
            "progress matrix (1,000 x 10)": lambda: time_page(
                client, reverse("assignment-progress", args=[course.pk, assignment.pk]), args.runs
            ),
            "manage.py gradebook": lambda: timed(
                max(3, args.runs // 3), lambda: call_command("gradebook", str(course.pk), stdout=io.StringIO())
            ),
        }
        work = {
            "gradebook page (100 of 1,000 students)": lambda: client.get(reverse("course-gradebook", args=[course.pk])),
            "gradebook CSV (1,000 students)": lambda: client.get(reverse("course-gradebook-csv", args=[course.pk])),
            "progress matrix (1,000 x 10)": lambda: client.get(
                reverse("assignment-progress", args=[course.pk, assignment.pk])
            ),
            "manage.py gradebook": lambda: call_command("gradebook", str(course.pk), stdout=io.StringIO()),
        }
        before = {label: measure() for label, measure in rows.items()}
        before_cost = {label: cost(max(3, args.runs // 3), one) for label, one in work.items()}
        count = add_adjustments(course, args.adjusted)
        ticked = add_rubric_marks(course, args.rubric)
        sql("VACUUM ANALYZE")
        after = {label: measure() for label, measure in rows.items()}
        after_cost = {label: cost(max(3, args.runs // 3), one) for label, one in work.items()}
        teams = add_groups(course, args.group_size)
        sql("VACUUM ANALYZE")
        grouped = {label: measure() for label, measure in rows.items()}
        grouped_cost = {label: cost(max(3, args.runs // 3), one) for label, one in work.items()}
        print(
            f"p50 / p95 in ms, without and with {count:,} adjustments (points by hand) and {ticked:,} rubric "
            f"items ticked, then also with {teams:,} groups of {args.group_size}; ratios of the p50s to the first"
        )
        for label in rows:
            (p50, p95), (q50, q95), (g50, g95) = before[label], after[label], grouped[label]
            print(
                f"{label:42} {p50:8.0f} {p95:8.0f}   {q50:8.0f} {q95:8.0f}   {g50:8.0f} {g95:8.0f}   "
                f"x{q50 / p50:.2f} x{g50 / p50:.2f}",
                flush=True,
            )
        print(
            "median CPU ms of the web process and SQL statements per call, in the same three rounds; ratios of the "
            "CPU to the first"
        )
        for label in rows:
            (c0, n0), (c1, n1), (c2, n2) = before_cost[label], after_cost[label], grouped_cost[label]
            print(
                f"{label:42} {c0:8.0f} {n0:5d}   {c1:8.0f} {n1:5d}   {c2:8.0f} {n2:5d}   x{c1 / c0:.2f} x{c2 / c0:.2f}",
                flush=True,
            )
        interleaved(course, work, args.runs)
    finally:
        if not args.keep:
            drop_database(args.database_url)


if __name__ == "__main__":
    main()
