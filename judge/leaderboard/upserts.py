"""``refresh_progress`` on PostgreSQL in three statements instead of eight ORM queries.

It runs with every verdict, so its round trips are what recording a verdict
costs. The figures and the rules are those of ``judge.leaderboard.services``
(the ORM path, used on SQLite); tests/test_standings_rebuild.py runs both
against the rebuild. The lock comes first, in a statement of its own, so that
the figures, read by the next statement, include every verdict committed before.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection

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
