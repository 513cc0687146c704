"""Who has solved the most problems, read from the kept totals (``judge.standings.models``).

A student's score is the number of published problems with an accepted Submit,
counting, in a time window, only the solves first reached in it. The list is
ordered by that number, then by who reached it first. Ranks show ties: a rank
is one plus the number of students who solved more, so everyone with the same
count shares it.

A solve a course holds from its student until it releases their grades (``judge.submissions.withheld``) is not
counted yet: the few students with one have their rows recounted from their kept states when a board is read
(``Board.moved``), and the rows of everyone else come from the kept totals as before. Nothing is stored for a
hold, so its release shows on the next read.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet
from django.utils import timezone

from judge.problems.models import Problem
from judge.standings.models import Period, PeriodTotals, ProblemTotals, SolvedLevel, UserProblemState, UserTotals
from judge.standings.services import period_start
from judge.submissions.withheld import held_everywhere, solve_shown

ANONYMOUS = "anonymous"
ORDER = ("-solved", "reached_at", "user_id")


@dataclass(frozen=True)
class Standing:
    rank: int
    username: str
    solved: int
    reached_at: datetime
    user_id: int = 0
    hidden: bool = False
    tied: bool = False

    @property
    def shown_name(self) -> str:
        return ANONYMOUS if self.hidden else self.username


@dataclass(frozen=True)
class Board:
    """The counts a window's ranks are computed from: ranked students per number solved."""

    window: str
    levels: dict[int, int]
    # Students with a held solve in this window: the row shown instead of their kept one (None: no row yet).
    moved: dict[int, tuple[int, datetime] | None] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.levels.values())

    def rank(self, solved: int) -> int:
        return 1 + sum(n for level, n in self.levels.items() if level > solved)

    def tied(self, solved: int) -> bool:
        return self.levels.get(solved, 0) > 1


def window_start(window: str, now: datetime | None = None) -> datetime | None:
    """The start of this calendar month or week (Monday) in the site's time zone; None for all time."""
    return None if window == Period.ALL else period_start(window, now or timezone.now())


def totals(window: str) -> QuerySet:
    """The ranked rows of a window, each with ``user_id``, ``solved`` and ``reached_at``."""
    starts_at = window_start(window)
    if starts_at is None:
        return UserTotals.objects.all()
    return PeriodTotals.objects.filter(window=window, starts_at=starts_at)


def board(window: str = Period.ALL) -> Board:
    if window == Period.ALL:
        kept = SolvedLevel.objects.filter(solved__gt=0, users__gt=0).values_list("solved", "users")
    else:
        kept = totals(window).order_by().values("solved").annotate(n=Count("user_id")).values_list("solved", "n")
    levels = dict(kept)
    moved = moved_rows(window, held_solves())
    if moved:
        for solved in totals(window).filter(user_id__in=list(moved)).values_list("solved", flat=True):
            levels[solved] = levels.get(solved, 0) - 1
        for row in moved.values():
            if row is not None:
                levels[row[0]] = levels.get(row[0], 0) + 1
    return Board(window, {level: n for level, n in levels.items() if n > 0}, moved)


def held_solves() -> list[tuple[int, int, datetime, bool, bool]]:
    """The kept solves of the students something is held from now: (user id, problem id, first accepted, the
    problem is published, the solve shows)."""
    held = held_everywhere()
    if not held:
        return []
    states = UserProblemState.objects.filter(user_id__in=list(held), first_accepted_at__isnull=False)
    rows = states.values_list("user_id", "problem_id", "first_accepted_at", "problem__published")
    return [(u, p, at, published, solve_shown(p, at, held[u])) for u, p, at, published in rows if at is not None]


def moved_rows(
    window: str, solves: list[tuple[int, int, datetime, bool, bool]]
) -> dict[int, tuple[int, datetime] | None]:
    """Per student with a held solve in ``window``: their row counting only the solves that show."""
    starts_at = window_start(window)
    shown: dict[int, list[datetime]] = defaultdict(list)
    moved: set[int] = set()
    for user_id, _, at, published, shows in solves:
        if not published or (starts_at is not None and period_start(window, at) != starts_at):
            continue
        if shows:
            shown[user_id].append(at)
        else:
            moved.add(user_id)
    return {u: (len(shown[u]), max(shown[u])) if shown[u] else None for u in moved}


def _key(row: tuple) -> tuple:
    user_id, solved, at = row
    return (-solved, at, user_id)


def _shown_rows(the_board: Board) -> list[tuple]:
    return sorted(((u, *row) for u, row in the_board.moved.items() if row is not None), key=_key)


def standings(
    window: str = Period.ALL,
    offset: int = 0,
    limit: int = 50,
    the_board: Board | None = None,
) -> list[Standing]:
    the_board = the_board or board(window)
    return _standings(page_rows(window, offset, limit, the_board), the_board)


def page_rows(window: str, offset: int, limit: int, the_board: Board) -> list[tuple]:
    """The rows at ``offset``: the kept rows, and the few moved ones (``Board.moved``) merged in where they fall."""
    if not the_board.moved:
        return _seek(totals(window), the_board.levels, offset, limit)
    moved = _shown_rows(the_board)
    levels = dict(the_board.levels)  # the levels of the kept rows alone
    for _, solved, _ in moved:
        levels[solved] -= 1
    # The kept rows that can fall on this page: at most len(moved) of them are pushed below it by moved rows.
    low, high = max(0, offset - len(moved)), offset + limit
    kept = _seek(totals(window).exclude(user_id__in=list(the_board.moved)), levels, low, high - low)
    if not kept:
        return moved[offset : offset + limit] if low == 0 else []
    first, last, ends = _key(kept[0]), _key(kept[-1]), len(kept) < high - low
    between = [r for r in moved if (low == 0 or _key(r) > first) and (ends or _key(r) < last)]
    start = 0 if low == 0 else low + sum(_key(r) < first for r in moved)  # where kept[0] is on the board
    return sorted(kept + between, key=_key)[offset - start : offset - start + limit]


def _seek(rows: QuerySet, levels: dict[int, int], offset: int, limit: int) -> list[tuple]:
    """The rows at ``offset``, in one query that seeks the index at the level holding that row:
    the levels above are skipped by their counts, so a deep page does not scan from the top."""
    top = None
    for level in sorted(levels, reverse=True):
        if offset < levels[level]:
            top = level
            break
        offset -= levels[level]
    if top is None:
        return []
    return list(
        rows.filter(solved__lte=top)
        .order_by(*ORDER)
        .values_list("user_id", "solved", "reached_at")[offset : offset + limit]
    )


def with_names(groups: list[list[tuple]], the_board: Board) -> list[list[Standing]]:
    """Several lists of rows made standings with one look-up of the names."""
    standings = iter(_standings([row for rows in groups for row in rows], the_board))
    return [[next(standings) for _ in rows] for rows in groups]


def _standings(rows: list[tuple], the_board: Board) -> list[Standing]:
    names = names_of([user_id for user_id, _, _ in rows])
    standings = []
    for uid, solved, at in rows:
        name, hidden = names.get(uid, ("", False))
        standings.append(Standing(the_board.rank(solved), name, solved, at, uid, hidden, the_board.tied(solved)))
    return standings


def names_of(user_ids: list[int]) -> dict[int, tuple[str, bool]]:
    """Per user id: the username, and whether they hide it from the standings; one query."""
    users = get_user_model().objects.filter(pk__in=user_ids)
    rows = users.values_list("pk", "username", "profile__hide_from_standings")
    return {pk: (name, bool(hidden)) for pk, name, hidden in rows}


def leaderboard(limit: int = 100, window: str = Period.ALL) -> list[Standing]:
    return standings(window, 0, limit)


def standing_of(user, window: str = Period.ALL, the_board: Board | None = None) -> Standing | None:
    """The user's own row, or None while they have solved nothing (in the window)."""
    if not user.is_authenticated:
        return None
    the_board = the_board or board(window)
    if user.pk in the_board.moved:
        moved = the_board.moved[user.pk]
        if moved is None:
            return None
        solved, at = moved
        hidden = names_of([user.pk]).get(user.pk, ("", False))[1]
        return Standing(the_board.rank(solved), user.username, solved, at, user.pk, hidden, the_board.tied(solved))
    row = (
        totals(window)
        .filter(user_id=user.pk)
        .values_list("solved", "reached_at", "user__profile__hide_from_standings")
        .first()
    )
    if row is None:
        return None
    solved, at, hidden = row
    return Standing(the_board.rank(solved), user.username, solved, at, user.pk, bool(hidden), the_board.tied(solved))


def position_of(standing: Standing, window: str, the_board: Board) -> int:
    """Where the student's row is in the list (1-based), to open the page that shows it."""
    above = sum(n for level, n in the_board.levels.items() if level > standing.solved)
    same = (
        totals(window)
        .filter(solved=standing.solved, reached_at__lte=standing.reached_at)
        .exclude(reached_at=standing.reached_at, user_id__gte=standing.user_id)
        .exclude(user_id__in=list(the_board.moved))
    )
    mine = _key((standing.user_id, standing.solved, standing.reached_at))
    moved = sum(r[1] == standing.solved and _key(r) < mine for r in _shown_rows(the_board))
    return above + same.count() + moved + 1


def neighbours(standing: Standing, window: str, the_board: Board, around: int = 2) -> list[Standing]:
    """The student's row with up to ``around`` rows on each side, in order."""
    return _standings(neighbour_rows(standing, window, around, the_board), the_board)


def neighbour_rows(standing: Standing, window: str, around: int = 2, the_board: Board | None = None) -> list[tuple]:
    the_board = the_board or board(window)
    if the_board.moved:  # rows moved by a hold: read the board's own order around the student's place
        place = position_of(standing, window, the_board) - 1
        offset = max(0, place - around)
        return page_rows(window, offset, place + around + 1 - offset, the_board)
    rows = totals(window)
    fields = ("user_id", "solved", "reached_at")
    s, t, u = standing.solved, standing.reached_at, standing.user_id
    # Ranges the index can seek (reached_at <= t), the rare equal times sorted out by user id.
    same_before = rows.filter(solved=s, reached_at__lte=t).exclude(reached_at=t, user_id__gte=u)
    same_after = rows.filter(solved=s, reached_at__gte=t).exclude(reached_at=t, user_id__lte=u)
    before = list(same_before.order_by("-reached_at", "-user_id").values_list(*fields)[:around])
    if len(before) < around:
        before += (
            rows.filter(solved__gt=s)
            .order_by("solved", "-reached_at", "-user_id")
            .values_list(*fields)[: around - len(before)]
        )
    after = list(same_after.order_by("reached_at", "user_id").values_list(*fields)[:around])
    if len(after) < around:
        after += rows.filter(solved__lt=s).order_by(*ORDER).values_list(*fields)[: around - len(after)]
    return [*reversed(before), (u, s, t), *after]


def find(query: str, window: str, the_board: Board, limit: int = 20) -> list[Standing]:
    """Ranked students whose name contains ``query``; hidden ones are never found."""
    return _standings(found_rows(query, window, limit, the_board), the_board)


def found_rows(query: str, window: str, limit: int = 20, the_board: Board | None = None) -> list[tuple]:
    the_board = the_board or board(window)
    matching = (
        get_user_model()
        .objects.filter(username__icontains=query)
        .exclude(profile__hide_from_standings=True)
        .values("pk")
    )
    rows = list(
        totals(window)
        .filter(user_id__in=matching)
        .exclude(user_id__in=list(the_board.moved))
        .order_by(*ORDER)
        .values_list("user_id", "solved", "reached_at")[:limit]
    )
    if not the_board.moved:
        return rows
    found = set(matching.filter(pk__in=list(the_board.moved)).values_list("pk", flat=True))
    return sorted(rows + [r for r in _shown_rows(the_board) if r[0] in found], key=_key)[:limit]


@dataclass(frozen=True)
class ProblemFirst:
    problem: Problem
    solvers: int
    first_solver: str  # "" before anyone solved it
    first_solved_at: datetime | None
    hidden: bool = False

    @property
    def shown_name(self) -> str:
        return ANONYMOUS if self.hidden else self.first_solver


def problem_firsts() -> list[ProblemFirst]:
    """Per published problem, in learning-path order: its solver count and who solved it first."""
    problems = list(Problem.objects.filter(published=True).only("slug", "title", "difficulty", "path_order"))
    kept = without_held(
        {t.problem_id: t for t in ProblemTotals.objects.filter(problem_id__in=[p.pk for p in problems])}
    )
    ids = [t.first_solver_id for t in kept.values() if t.first_solver_id]
    names = names_of(ids)
    rows = []
    for problem in problems:
        t = kept.get(problem.pk) or ProblemTotals()
        name, hidden = names.get(t.first_solver_id, ("", False)) if t.first_solver_id else ("", False)
        rows.append(ProblemFirst(problem, t.solvers, name, t.first_solved_at, hidden))
    return rows


def problem_totals() -> dict[int, ProblemTotals]:
    """Per problem id: graded submits, accepted ones, solvers (the problem list's statistics)."""
    return without_held({t.problem_id: t for t in ProblemTotals.objects.all()})


def without_held(kept: dict[int, ProblemTotals]) -> dict[int, ProblemTotals]:
    """The problems' totals (read, never saved) less the solves held from their students: fewer solvers, and the
    first solver the first whose solve shows."""
    hidden: dict[int, set[int]] = defaultdict(set)
    for user_id, problem_id, _, _, shows in held_solves():
        if not shows and problem_id in kept:
            hidden[problem_id].add(user_id)
    for problem_id, users in hidden.items():
        t = kept[problem_id]
        t.solvers -= len(users)
        if t.first_solver_id in users:
            first = (
                UserProblemState.objects.filter(problem_id=problem_id, first_accepted_at__isnull=False)
                .exclude(user_id__in=users)
                .order_by("first_accepted_at", "user_id")
                .values_list("user_id", "first_accepted_at")
                .first()
            )
            t.first_solver_id, t.first_solved_at = first or (None, None)
    return kept


def marks_of(user) -> tuple[set[int], set[int]]:
    """Problem ids this user solved, and those they submitted to without solving yet."""
    if not user.is_authenticated:
        return set(), set()
    states = list(UserProblemState.objects.filter(user=user).values_list("problem_id", "first_accepted_at"))
    solved = {pid for pid, first in states if first is not None}
    return solved, {pid for pid, _ in states} - solved
