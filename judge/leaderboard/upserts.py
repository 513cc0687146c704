"""Recording a verdict with its standings on PostgreSQL in one statement instead of a dozen ORM queries.

It runs with every verdict, so its round trips are what recording a verdict
costs: ``record_verdict_postgresql`` calls one PL/pgSQL function that stores the
verdict, recounts the state and carries a first solve into the totals, in the
one transaction of that statement; the rarer rest (a rejudge that moves or
removes a solve) is refused by the function and done the long way, in
``judge.leaderboard.services``. The figures and the rules are those of ``judge.leaderboard.services``
(the ORM path, used on SQLite); tests/test_standings_rebuild.py runs both
against the rebuild. The lock comes first, in a statement of its own, so that
the figures, read by the next statement, include every verdict committed before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import uuid
from datetime import datetime

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from engine.verdicts import Verdict
from judge.leaderboard.models import Window

# Locks (or makes) the state row of a Submit's student and problem and returns it as it was, with whether
# the problem is published; nothing for a Run.
LOCK_STATE = """
INSERT INTO leaderboard_userproblemstate AS s (user_id, problem_id, attempts, accepted, first_accepted_at, best_verdict)
SELECT user_id, problem_id, 0, 0, NULL, '' FROM submissions_submission WHERE id = %(submission)s AND kind = 'submit'
ON CONFLICT (user_id, problem_id) DO UPDATE SET attempts = s.attempts
RETURNING s.user_id, s.problem_id, s.id, s.attempts, s.accepted, s.first_accepted_at,
          (SELECT published FROM problems_problem WHERE id = s.problem_id)
"""

# Recounts the state from the graded submits and carries the change into the problem's totals.
RECOUNT_STATE = """
WITH fig AS (
    SELECT count(*) AS graded, count(*) FILTER (WHERE verdict = 'accepted') AS ok,
           min(created_at) FILTER (WHERE verdict = 'accepted') AS first, min({rank}) AS best_rank
    FROM submissions_submission
    WHERE user_id = %(user)s AND problem_id = %(problem)s AND kind = 'submit' AND status = 'done'
), kept AS (
    UPDATE leaderboard_userproblemstate AS s
    SET attempts = fig.graded, accepted = fig.ok, first_accepted_at = fig.first, best_verdict = {best}
    FROM fig WHERE s.id = %(state)s
    RETURNING fig.graded, fig.ok, fig.first
), delta AS (
    SELECT kept.graded - %(attempts)s AS graded, kept.ok - %(accepted)s AS ok,
           (kept.first IS NOT NULL)::int - %(was_solved)s::int AS solvers,
           CASE WHEN NOT %(was_solved)s AND kept.first IS NOT NULL THEN kept.first END AS first
    FROM kept
), totals AS (
    INSERT INTO leaderboard_problemtotals AS t (problem_id, submissions, accepted, solvers, first_solver_id,
                                                first_solved_at)
    SELECT %(problem)s, GREATEST(graded, 0), GREATEST(ok, 0), GREATEST(solvers, 0),
           CASE WHEN first IS NOT NULL THEN %(user)s END, first FROM delta
    WHERE graded <> 0 OR ok <> 0 OR solvers <> 0
    ON CONFLICT (problem_id) DO UPDATE SET  -- the deltas themselves: the inserted row may not be negative
        submissions = t.submissions + (SELECT graded FROM delta), accepted = t.accepted + (SELECT ok FROM delta),
        solvers = t.solvers + (SELECT solvers FROM delta),
        first_solver_id = CASE WHEN {earlier} THEN excluded.first_solver_id ELSE t.first_solver_id END,
        first_solved_at = CASE WHEN {earlier} THEN excluded.first_solved_at ELSE t.first_solved_at END
)
SELECT graded, ok, first FROM kept
"""
EARLIER = ("excluded.first_solved_at IS NOT NULL AND (t.first_solved_at IS NULL"
           " OR t.first_solved_at > excluded.first_solved_at"
           " OR (t.first_solved_at = excluded.first_solved_at AND t.first_solver_id > excluded.first_solver_id))")

ADD_SOLVE = """
INSERT INTO leaderboard_usertotals AS t (user_id, solved, reached_at) VALUES (%(user)s, 1, %(at)s)
ON CONFLICT (user_id) DO UPDATE SET solved = t.solved + 1, reached_at = GREATEST(t.reached_at, excluded.reached_at)
RETURNING t.solved
"""
ADD_PERIOD_SOLVE = """
INSERT INTO leaderboard_periodtotals AS t (user_id, "window", starts_at, solved, reached_at)
VALUES (%(user)s, %(month)s, %(month_start)s, 1, %(at)s), (%(user)s, %(week)s, %(week_start)s, 1, %(at)s)
ON CONFLICT (user_id, "window", starts_at) DO UPDATE SET
    solved = t.solved + 1, reached_at = GREATEST(t.reached_at, excluded.reached_at)
"""
MOVE_LEVEL = """
INSERT INTO leaderboard_solvedlevel AS l (solved, users) VALUES {rows}
ON CONFLICT (solved) DO UPDATE SET users = l.users + excluded.users
"""


def _ranked(best_first: tuple[Verdict, ...]) -> tuple[str, str]:
    rank = "CASE verdict " + " ".join(f"WHEN '{v.value}' THEN {i}" for i, v in enumerate(best_first)) + \
        f" ELSE {len(best_first)} END"
    best = "CASE fig.best_rank " + " ".join(f"WHEN {i} THEN '{v.value}'" for i, v in enumerate(best_first)) + \
        " ELSE '' END"
    return rank, best


# The best result of a student on a problem: the verdict closest to a solve.
BEST_FIRST = (Verdict.ACCEPTED, Verdict.WRONG_ANSWER, Verdict.TIME_LIMIT_EXCEEDED, Verdict.MEMORY_LIMIT_EXCEEDED,
              Verdict.OUTPUT_LIMIT_EXCEEDED, Verdict.RUNTIME_ERROR, Verdict.COMPILE_ERROR, Verdict.INTERNAL_ERROR)
RANKED = _ranked(BEST_FIRST)


def refresh_progress_postgresql(submission_id: int) -> tuple | None:
    """The state and the problem's totals after a verdict of this submission; None for a Run.

    Returns (user, problem, first accepted before, after, published, graded submits counted); the
    caller (``services.refresh_submission_progress``) handles the rarer rest: a state with no graded
    submit left, and a solve that moved or went away.
    """
    rank, best = RANKED
    with connection.cursor() as cursor:
        cursor.execute(LOCK_STATE, {"submission": submission_id})
        locked = cursor.fetchone()
        if locked is None:
            return None
        user_id, problem_id, state_id, attempts, accepted, was_first, published = locked
        cursor.execute(RECOUNT_STATE.format(rank=rank, best=best, earlier=EARLIER), {
            "user": user_id, "problem": problem_id, "state": state_id, "attempts": attempts,
            "accepted": accepted, "was_solved": was_first is not None})
        graded, _, first = cursor.fetchone()
    return user_id, problem_id, was_first, first, bool(published), graded


def add_solve_postgresql(user_id: int, at: datetime, month_start: datetime, week_start: datetime) -> None:
    """A first solve of a published problem: one more for the student, and in its month and week."""
    with connection.cursor() as cursor:
        cursor.execute(ADD_SOLVE, {"user": user_id, "at": at})
        (solved,) = cursor.fetchone()
        cursor.execute(ADD_PERIOD_SOLVE, {"user": user_id, "at": at, "month": Window.MONTH.value,
                                          "month_start": month_start, "week": Window.WEEK.value,
                                          "week_start": week_start})
        rows = ([f"({solved - 1}, -1)"] if solved > 1 else []) + [f"({solved}, 1)"]
        cursor.execute(MOVE_LEVEL.format(rows=", ".join(rows)))


# --------------------------------------------------------------------------
# The whole of a common verdict in one round trip
# --------------------------------------------------------------------------

def _variables(sql: str) -> str:
    """A statement above with its %(name)s parameters turned into the function's v_name variables."""
    for name in ("submission", "user", "problem", "state", "attempts", "accepted", "was_solved"):
        sql = sql.replace(f"%({name})s", f"v_{name}")
    return sql.strip()


LONG_WAY = "JR001"  # the SQLSTATE the function raises when the verdict needs services' long way
UNDEFINED_FUNCTION = "42883"  # PostgreSQL's, when the function is not there yet

RECORD_VERDICT_FUNCTION = """
CREATE OR REPLACE FUNCTION {name}(
    v_submission bigint, v_claim uuid, v_verdict text, v_message text, v_results jsonb, v_properties jsonb,
    v_grading_ms double precision, v_sandbox jsonb, v_now timestamptz, v_zone text)
RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
    v_user bigint; v_problem bigint; v_state bigint; v_attempts bigint; v_accepted bigint;
    v_was_first timestamptz; v_published boolean; v_was_solved boolean;
    r_graded bigint; r_first timestamptz; r_solved bigint;
BEGIN
    UPDATE submissions_submission SET status = '{done}', verdict = v_verdict, message = v_message,
        results = v_results, properties = v_properties, grading_ms = v_grading_ms, sandbox = v_sandbox,
        finished_at = v_now, claim = NULL
    WHERE id = v_submission AND claim = v_claim AND status = '{running}';
    IF NOT FOUND THEN
        RETURN false;  -- someone else holds the claim now
    END IF;
    -- Each statement of a PL/pgSQL function sees what was committed before it began, so the recount,
    -- which starts after the lock is held, counts every verdict of this student and problem.
    {lock} INTO v_user, v_problem, v_state, v_attempts, v_accepted, v_was_first, v_published;
    IF NOT FOUND THEN
        RETURN true;  -- a Run
    END IF;
    v_was_solved := v_was_first IS NOT NULL;
    {recount} INTO r_graded, r_first FROM kept;
    IF r_graded = 0 OR (v_was_solved AND r_first IS DISTINCT FROM v_was_first) THEN
        RAISE EXCEPTION 'a solve moved: the standings take the long way' USING ERRCODE = '{long_way}';
    END IF;
    IF NOT v_was_solved AND r_first IS NOT NULL AND v_published THEN
        INSERT INTO leaderboard_usertotals AS t (user_id, solved, reached_at) VALUES (v_user, 1, r_first)
        ON CONFLICT (user_id) DO UPDATE SET solved = t.solved + 1,
            reached_at = GREATEST(t.reached_at, excluded.reached_at)
        RETURNING t.solved INTO r_solved;
        INSERT INTO leaderboard_periodtotals AS t (user_id, "window", starts_at, solved, reached_at)
        VALUES (v_user, '{month}', date_trunc('month', r_first, v_zone), 1, r_first),
               (v_user, '{week}', date_trunc('week', r_first, v_zone), 1, r_first)
        ON CONFLICT (user_id, "window", starts_at) DO UPDATE SET
            solved = t.solved + 1, reached_at = GREATEST(t.reached_at, excluded.reached_at);
        INSERT INTO leaderboard_solvedlevel AS l (solved, users)
        SELECT level, users FROM (VALUES (r_solved - 1, -1), (r_solved, 1)) AS moved (level, users) WHERE level > 0
        ON CONFLICT (solved) DO UPDATE SET users = l.users + excluded.users;
    END IF;
    RETURN true;
END $fn$
"""


def _record_verdict_function() -> tuple[str, str]:
    from judge.submissions.models import Status

    body = RECORD_VERDICT_FUNCTION.format(
        name="{name}", done=Status.DONE.value, running=Status.RUNNING.value, long_way=LONG_WAY,
        month=Window.MONTH.value, week=Window.WEEK.value, lock=_variables(LOCK_STATE),
        recount=_variables(RECOUNT_STATE.format(rank=RANKED[0], best=RANKED[1], earlier=EARLIER)).replace(
            "SELECT graded, ok, first FROM kept", "SELECT graded, first"))
    # Named by its text: workers of two releases (hosts upgraded one at a time) each call their own.
    name = "judge_record_verdict_" + hashlib.sha256(body.encode()).hexdigest()[:12]
    return name, body.replace("{name}", name)


RECORD_VERDICT_NAME, RECORD_VERDICT_SQL = _record_verdict_function()
CALL_RECORD_VERDICT = (f"SELECT {RECORD_VERDICT_NAME}(%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s::jsonb, %s, %s)")


def record_verdict_postgresql(submission_id: int, token: uuid.UUID, verdict: str, message: str, results: list,
                              properties: list, grading_ms: float | None, sandbox: dict) -> bool | None:
    """``record_verdict`` in one statement: True if recorded, False if the claim was gone.

    None when the verdict moves or removes a solve (a rejudge): nothing was written,
    and the caller records it the long way. The function is made on first use.
    """
    params = [submission_id, token, verdict, message, json.dumps(results), json.dumps(properties), grading_ms,
              json.dumps(sandbox), timezone.now(), settings.TIME_ZONE]
    try:
        return _call_record_verdict(params)
    except DatabaseError as exc:
        if _sqlstate(exc) == LONG_WAY:
            return None
        if _sqlstate(exc) != UNDEFINED_FUNCTION:
            raise
    with contextlib.suppress(DatabaseError):  # another worker may be making it at the same moment
        install_record_verdict_function()
    try:
        return _call_record_verdict(params)
    except DatabaseError as exc:
        if _sqlstate(exc) in (LONG_WAY, UNDEFINED_FUNCTION):
            return None
        raise


def _call_record_verdict(params: list) -> bool:
    # Inside a transaction (a test's, or a caller's), a savepoint keeps a refusal from aborting it.
    with transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext():
        with connection.cursor() as cursor:
            cursor.execute(CALL_RECORD_VERDICT, params)
            return cursor.fetchone()[0]


def _sqlstate(exc: DatabaseError) -> str | None:
    return getattr(exc.__cause__, "sqlstate", None)


def install_record_verdict_function() -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(RECORD_VERDICT_SQL)
