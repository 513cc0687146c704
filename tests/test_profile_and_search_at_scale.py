"""The profile and the leaderboard's name search read indexes, not whole tables, and the profile's queries do not
grow with a student's history (bench/scale.py times both at 100k students and 1M submissions)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.verdicts import Verdict
from judge.standings.models import Period
from judge.standings.progress import progress_of
from judge.standings.ranking import found_rows
from judge.submissions.models import Kind
from tests.boards import days_ago, quick_problem, recorded

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="the indexes are PostgreSQL's")


def plan_of(sql: str, *, one_index: bool = False, bitmap_only: bool = False) -> str:
    """PostgreSQL's plan for ``sql`` when reading a whole table is made to look dear: whether an index can
    answer it at all (on a few test rows the planner would rightly read the table).  ``one_index``: with
    bitmap scans made dear too, which single index the planner finds best (on a few rows it may rightly
    combine another index with the table in a bitmap scan, as CI once saw).  ``bitmap_only``: with plain
    index scans made dear instead, for an index only a bitmap scan can read (GIN)."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        if one_index:
            cursor.execute("SET LOCAL enable_bitmapscan = off")
        if bitmap_only:
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute("SET LOCAL enable_indexonlyscan = off")
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())


def queries_of(call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [query["sql"] for query in captured.captured_queries]


def test_a_name_search_reads_the_trigram_index_of_usernames(db, django_user_model):
    for name in ("ada", "adele", "grace"):
        django_user_model.objects.create_user(name)
    (search,) = [sql for sql in queries_of(lambda: found_rows("DEL", Period.ALL)) if "LIKE" in sql]
    # A GIN index is read by a bitmap scan only. With the statistics earlier tests left on auth_user (a
    # worker's tests run one after another on one database), the planner found a whole scan of the primary
    # key, filtering each name, cheaper than that bitmap scan on three rows; the question here is whether
    # the trigram index can answer the search, so plain index scans are made dear too.
    plan = plan_of(search, bitmap_only=True)
    assert "leaderboard_username_search" in plan, plan
    assert "Seq Scan on auth_user" not in plan, plan


def test_the_profile_calendar_counts_from_its_index_alone(db, student):
    problem = quick_problem("alpha")
    for day in range(20):  # a history the calendar mostly leaves out: Runs, and Submits over a year ago
        recorded(student, problem, Verdict.WRONG_ANSWER, at=days_ago(day))
        recorded(student, problem, Verdict.WRONG_ANSWER, at=days_ago(day), kind=Kind.RUN)
        recorded(student, problem, Verdict.WRONG_ANSWER, at=days_ago(400 + day))
    (calendar,) = [sql for sql in queries_of(lambda: progress_of(student)) if "::date" in sql]
    with connection.cursor() as cursor:
        # On a few rows the planner's pick between the user's indexes varied from run to run (a bitmap or plain
        # scan of the user index, then a filter): the question here is whether the calendar's index holds all
        # the query needs, so the other user indexes are dropped (in this test's transaction, rolled back).
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no deferred foreign-key checks pending on the table
        cursor.execute("ALTER TABLE submissions_submission DROP CONSTRAINT submission_once_per_click")
        cursor.execute("DROP INDEX submissions_submission_user_id_f185a147, submissions_user_id_cb9ad6_idx")
        cursor.execute("ANALYZE submissions_submission")  # the planner sees that history, not a guess
    plan = plan_of(calendar, one_index=True)
    assert "using submission_calendar" in plan, plan
    assert "Index Cond: ((user_id = " in plan and "kind" in plan.split("Index Cond:")[1], plan
    assert "Seq Scan" not in plan, plan


def test_a_long_history_costs_the_profile_no_more_queries(client, student, second_student):
    problems = [quick_problem(f"p{i}", ("attention",), i) for i in range(6)]
    recorded(second_student, problems[0])
    for day in range(40):
        recorded(student, problems[day % 6], Verdict.WRONG_ANSWER if day % 3 else Verdict.ACCEPTED, at=days_ago(day))
    client.get("/accounts/users/grace/")  # the footer's cached reads out of the way
    short = queries_of(lambda: client.get("/accounts/users/grace/"))
    long = queries_of(lambda: client.get("/accounts/users/ada/"))
    # 7: the five reads of the page, and two for grades a course holds (the owner's holds; the assignments that
    # may hold anyone's solve, for the rank), none of which grows with the history.
    assert len(long) == len(short) <= 7, long
