"""The standings rules, once, in plain Python: what graded submits make of a student's state on a problem, and
what the states make of the totals that rank students.

- A student's state on a problem comes from their graded Submits on it (Runs never count): how many, how many
  accepted, when they first got it accepted, and their best verdict (``BEST_FIRST``); no graded Submit, no state.
- A solve counts for a student's totals while its problem is published: how many, and when that count was
  reached (their latest first solve); the same per calendar week (from Monday) and month in the site's time
  zone, counting the solves first reached in it. A level is how many ranked students solved exactly n.
- A problem's totals count every state, published or not: graded Submits, accepted ones, solvers, and the first
  solver (the earliest first solve; the lower user id on a tie).

The database keeps the same figures three faster ways: the PL/pgSQL function of migration 0003 (each verdict,
on PostgreSQL), ``services.refresh_progress`` (the ORM's path, on SQLite) and the set-based rebuild
(``services.rebuild_standings``). tests/test_standings_rules.py runs random histories through each of them and
compares what they kept with ``standings_of``, so a rule changed in one place and not the others fails there.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from engine.verdicts import Verdict

# The best result of a student on a problem: the verdict closest to a solve.
BEST_FIRST = (
    Verdict.ACCEPTED,
    Verdict.WRONG_ANSWER,
    Verdict.TIME_LIMIT_EXCEEDED,
    Verdict.MEMORY_LIMIT_EXCEEDED,
    Verdict.OUTPUT_LIMIT_EXCEEDED,
    Verdict.RUNTIME_ERROR,
    Verdict.COMPILE_ERROR,
    Verdict.INTERNAL_ERROR,
)
MONTH, WEEK = "month", "week"  # the values of ``models.Period``, which this module does not import


@dataclass(frozen=True)
class State:
    attempts: int
    accepted: int
    first_accepted_at: datetime | None
    best_verdict: str  # "" when no graded verdict is one of BEST_FIRST


@dataclass(frozen=True)
class Graded:
    """One graded Submit, as the rules see it."""

    user_id: int
    problem_id: int
    verdict: str
    created_at: datetime


def state_of(per_verdict: Mapping[str, tuple[int, datetime | None]]) -> State | None:
    """The state from a student's graded Submits on one problem, given per verdict as (how many, the earliest)."""
    if not per_verdict:
        return None
    accepted, first = per_verdict.get(Verdict.ACCEPTED, (0, None))
    best = min((BEST_FIRST.index(v) for v in per_verdict if v in BEST_FIRST), default=None)
    return State(
        sum(n for n, _ in per_verdict.values()),
        accepted,
        first if accepted else None,
        "" if best is None else BEST_FIRST[best].value,
    )


def period_start(window: str, at: datetime, zone: tzinfo) -> datetime:
    """The start of the calendar month or week (Monday) holding ``at``, in ``zone``."""
    day = at.astimezone(zone).replace(hour=0, minute=0, second=0, microsecond=0)
    return day.replace(day=1) if window == MONTH else day - timedelta(days=day.weekday())


@dataclass
class Standings:
    """Every kept figure, keyed as the tables are: what the rules say the database should hold."""

    states: dict[tuple[int, int], State]
    totals: dict[int, tuple[int, datetime]]  # user -> (solved, reached at)
    periods: dict[tuple[int, str, datetime], tuple[int, datetime]]  # (user, window, start) -> (solved, reached at)
    levels: dict[int, int]  # solved -> ranked students
    problems: dict[int, tuple[int, int, int, int | None, datetime | None]]  # submissions, accepted, solvers, first


def standings_of(graded: Iterable[Graded], published: set[int], zone: tzinfo) -> Standings:
    """The standings from every graded Submit, given the ids of the published problems."""
    per_pair: dict[tuple[int, int], dict[str, tuple[int, datetime]]] = defaultdict(dict)
    for g in graded:
        counts = per_pair[g.user_id, g.problem_id]
        n, first = counts.get(g.verdict, (0, g.created_at))
        counts[g.verdict] = (n + 1, min(first, g.created_at))
    states = {pair: state for pair, counts in per_pair.items() if (state := state_of(counts)) is not None}
    counted: list[tuple[Hashable, datetime]] = [
        (user, s.first_accepted_at)
        for (user, problem), s in states.items()
        if s.first_accepted_at is not None and problem in published
    ]
    return Standings(states, _ranked(counted), _periods(counted, zone), _levels(_ranked(counted)), _problems(states))


def _ranked(solves: list[tuple[Hashable, datetime]]) -> dict:
    """Per key: how many solves, and the latest of them (when that count was reached)."""
    totals: dict = {}
    for key, at in solves:
        n, reached = totals.get(key, (0, at))
        totals[key] = (n + 1, max(reached, at))
    return totals


def _periods(solves: list[tuple[Hashable, datetime]], zone: tzinfo) -> dict:
    return _ranked(
        [((user, window, period_start(window, at, zone)), at) for user, at in solves for window in (MONTH, WEEK)]
    )


def _levels(totals: dict[int, tuple[int, datetime]]) -> dict[int, int]:
    levels: dict[int, int] = defaultdict(int)
    for solved, _ in totals.values():
        levels[solved] += 1
    return dict(levels)


def _problems(states: dict[tuple[int, int], State]) -> dict:
    problems: dict = {}
    for (user, problem), s in sorted(states.items()):
        submissions, accepted, solvers, first_user, first_at = problems.get(problem, (0, 0, 0, None, None))
        solved = s.first_accepted_at is not None
        if solved and (first_at is None or (s.first_accepted_at, user) < (first_at, first_user)):
            first_user, first_at = user, s.first_accepted_at
        problems[problem] = (submissions + s.attempts, accepted + s.accepted, solvers + solved, first_user, first_at)
    return problems
