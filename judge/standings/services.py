"""Keeping the standings with the verdicts.

A student's state on a problem is recomputed from their graded submits (an
indexed handful of rows) in the transaction that changed one of them, never
added to: a redelivered verdict, a rejudge that changes a verdict, or a second
call all leave the same rows, so nothing is counted twice. Only the changes
between the old and the new state are carried into the per-problem and
per-student totals. ``rebuild_standings`` computes every row from the
submissions with the same queries, set-based. The rules themselves are written
once, in plain Python, in ``judge.standings.rules``; these are its faster
forms, and tests/test_standings_rules.py checks them (and the PostgreSQL
function) against it on random histories.

A first solve, the common change, is added to the student's totals and their
week's and month's with UPDATEs (solved + 1), which concurrent verdicts cannot
lose. Anything else that moves a solve (a rejudge) recounts the student's
totals under a lock of their user row (``FOR NO KEY UPDATE``, so their new
submissions are not held up) and of their totals row. Locks, always in this
order: the state row, the problem's totals, the user row, the student's
totals, the solved levels in ascending order.

Deleting a user or a problem goes through Django's cascade, also from the
admin; ``judge.standings.apps`` connects ``forget_user`` and
``forget_problem`` to ``pre_delete`` for that, the one place signals are used.
"""

from __future__ import annotations

from dataclasses import astuple
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    DateTimeField,
    Expression,
    F,
    IntegerField,
    Max,
    Min,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Greatest, TruncMonth, TruncWeek
from django.utils import timezone

from engine.verdicts import Verdict
from judge.problems.models import Problem
from judge.standings import rules
from judge.standings.models import (
    Period,
    PeriodTotals,
    ProblemTotals,
    SolvedLevel,
    UserProblemState,
    UserTotals,
)
from judge.submissions.models import Kind, Status, Submission

TRUNC = {Period.MONTH: TruncMonth, Period.WEEK: TruncWeek}

STATE_COLUMNS = ["user", "problem", "attempts", "accepted", "first_accepted_at", "best_verdict"]
TOTALS_COLUMNS = ["user", "solved", "reached_at"]
PERIOD_COLUMNS = ["user", "window", "starts_at", "solved", "reached_at"]
PROBLEM_COLUMNS = ["problem", "submissions", "accepted", "solvers"]


# --------------------------------------------------------------------------
# The queries, shared by the incremental path and the rebuild
# --------------------------------------------------------------------------


def state_rows(submissions: QuerySet[Submission]) -> QuerySet:
    """STATE_COLUMNS per (user, problem), from the graded submits among ``submissions``: ``rules.state_of`` as
    one aggregate query, its best verdict ranked in SQL by ``rules.BEST_FIRST``."""
    accepted = Q(verdict=Verdict.ACCEPTED)
    ranked = rules.BEST_FIRST
    rank = Case(*(When(verdict=v, then=Value(i)) for i, v in enumerate(ranked)), default=Value(len(ranked)))
    best = Case(*(When(best_rank=i, then=Value(v.value)) for i, v in enumerate(ranked)), default=Value(""))
    return (
        submissions.filter(kind=Kind.SUBMIT, status=Status.DONE)
        .order_by()
        .values("user_id", "problem_id")
        .annotate(
            graded=Count("id"),
            ok=Count("id", filter=accepted),
            first=Min("created_at", filter=accepted),
            best_rank=Min(rank),
        )
        .annotate(best=best)
        .values_list("user_id", "problem_id", "graded", "ok", "first", "best")
    )


def _counted(states: QuerySet[UserProblemState]) -> QuerySet[UserProblemState]:
    """Solves that count for standings: of published problems only."""
    return states.filter(first_accepted_at__isnull=False, problem__published=True).order_by()


def totals_rows(states: QuerySet[UserProblemState]) -> QuerySet:
    return (
        _counted(states)
        .values("user_id")
        .annotate(n=Count("id"), at=Max("first_accepted_at"))
        .values_list("user_id", "n", "at")
    )


def period_rows(states: QuerySet[UserProblemState], window: Period) -> QuerySet:
    return (
        _counted(states)
        .annotate(kind=Value(window), period=TRUNC[window]("first_accepted_at"))
        .values("user_id", "kind", "period")
        .annotate(n=Count("id"), at=Max("first_accepted_at"))
        .values_list("user_id", "kind", "period", "n", "at")
    )


def problem_rows(states: QuerySet[UserProblemState]) -> QuerySet:
    return (
        states.order_by()
        .values("problem_id")
        .annotate(
            graded=Sum("attempts"), ok=Sum("accepted"), solvers=Count("id", filter=Q(first_accepted_at__isnull=False))
        )
        .values_list("problem_id", "graded", "ok", "solvers")
    )


def insert_rows(model, columns: list[str], rows: QuerySet) -> None:
    """INSERT ... SELECT, with the SELECT written by the ORM so that it runs on PostgreSQL and SQLite alike."""
    sql, params = rows.query.sql_with_params()
    quote = connection.ops.quote_name
    names = ", ".join(quote(model._meta.get_field(c).column) for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {quote(model._meta.db_table)} ({names}) {sql}", params)


# --------------------------------------------------------------------------
# After one verdict
# --------------------------------------------------------------------------


def refresh_progress(user_id: int, problem_id: int) -> None:
    """Bring one student's standing on one problem in line with their graded submits.

    Call it in the transaction that changed one of their submissions (``record_verdict``
    does); any service that changes or removes a verdict may call it too.
    """
    with transaction.atomic(savepoint=False):
        state = _locked_state(user_id, problem_id)
        fresh = pair_figures(user_id, problem_id)
        old = (state.attempts, state.accepted, state.first_accepted_at)
        new = fresh[:3] if fresh else (0, 0, None)
        _store_state(state, user_id, problem_id, fresh)
        first_solve = old[2] is None and new[2] is not None  # the common case of a change: added, not recounted
        _add_to_problem(
            problem_id,
            new[0] - old[0],
            new[1] - old[1],
            (new[2] is not None) - (old[2] is not None),
            (user_id, new[2]) if first_solve else None,
        )
        if new[2] == old[2]:
            return
        if not first_solve:
            _refresh_first_solver(problem_id)
        if not Problem.objects.filter(pk=problem_id, published=True).exists():
            return  # solves of a draft count for no one's totals
        if first_solve:
            _add_solve(user_id, new[2])
        else:  # a rejudge moved or took away a solve
            _lock_users([user_id])
            _refresh_users([user_id])


def in_database() -> bool:
    """Whether a verdict moves the standings inside the database (PostgreSQL: the function of migration 0003) or
    through the ORM rules of ``refresh_progress`` (elsewhere)."""
    return connection.vendor == "postgresql"


def apply_verdict(submission_id: int) -> None:
    """The standings after this submission's verdict was recorded; call it in the transaction that recorded it.

    ``judge.grading.recording`` calls it with every verdict it cannot record in one statement. On PostgreSQL
    the database function ``judge_apply_verdict`` (installed by migration 0003) does the common case in one
    round trip: the recount of the state, the problem's totals and a first solve; here only the rarer rest
    (a state with no graded submit left, a solve a rejudge moved or took away). Elsewhere (SQLite) the ORM
    rules of ``refresh_progress`` do it all.
    """
    if not in_database():
        user_id, problem_id, kind = Submission.objects.values_list("user_id", "problem_id", "kind").get(
            pk=submission_id
        )
        if kind == Kind.SUBMIT:
            refresh_progress(user_id, problem_id)
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM judge_apply_verdict(%s, %s, false)", [submission_id, settings.TIME_ZONE])
        applied = cursor.fetchone()
    if applied is None:
        return  # a Run
    user_id, problem_id, was_first, first, published, graded = applied
    if not graded:
        UserProblemState.objects.filter(user_id=user_id, problem_id=problem_id).delete()
    if first == was_first or was_first is None:
        return  # unchanged, or a first solve, which the function added
    _refresh_first_solver(problem_id)
    if published:
        _lock_users([user_id])
        _refresh_users([user_id])


def in_statement(submission: str) -> tuple[str, list] | None:
    """The common case of ``apply_verdict`` as a FROM item of the statement that records the verdict.

    ``submission`` is the SQL expression of the submission's id. PostgreSQL only: the function refuses a
    rare case (SQLSTATE JR001), and the verdict is then recorded the long way, with ``apply_verdict``.
    """
    if not in_database():
        return None
    return f"judge_apply_verdict({submission}, %s, true)", [settings.TIME_ZONE]


def period_start(window: str, at: datetime) -> datetime:
    """The start of the calendar month or week (Monday) holding ``at``, in the site's time zone, as Trunc* give."""
    return rules.period_start(window, at, timezone.get_default_timezone())


def _add_solve(user_id: int, at: datetime) -> None:
    """One more solve for the student, in all time and in the week and month it was reached."""
    _bump(UserTotals, {"user_id": user_id}, at)
    solved = UserTotals.objects.filter(user_id=user_id).values_list("solved", flat=True).get()
    _move_level(solved - 1, solved)
    for window in TRUNC:
        _bump(PeriodTotals, {"user_id": user_id, "window": window, "starts_at": period_start(window, at)}, at)


def _bump(model, key: dict, at: datetime) -> None:
    """solved + 1 and reached_at = max(reached_at, at), on the row at ``key``, made if missing.

    An UPDATE, so concurrent verdicts add up; a recount (``_refresh_users``) holds the row's lock.
    """
    change = {"solved": F("solved") + 1, "reached_at": Greatest("reached_at", Value(at, DateTimeField()))}
    if not model.objects.filter(**key).update(**change):
        model.objects.bulk_create([model(**key, solved=0, reached_at=at)], ignore_conflicts=True)
        model.objects.filter(**key).update(**change)


def pair_figures(user_id: int, problem_id: int) -> tuple | None:
    """(attempts, accepted, first accepted at, best verdict) from one student's graded submits on one problem:
    ``rules.state_of`` over a count per verdict, a query quicker to plan than ``state_rows`` (it runs with every
    verdict)."""
    rows = (
        Submission.objects.filter(user_id=user_id, problem_id=problem_id, kind=Kind.SUBMIT, status=Status.DONE)
        .order_by()
        .values_list("verdict")
        .annotate(n=Count("id"), first=Min("created_at"))
    )
    state = rules.state_of({verdict: (n, first) for verdict, n, first in rows})
    return None if state is None else astuple(state)


def _locked_state(user_id: int, problem_id: int) -> UserProblemState:
    """The state row, locked: concurrent verdicts of one student on one problem take turns."""
    state = UserProblemState.objects.select_for_update().filter(user_id=user_id, problem_id=problem_id).first()
    if state is None:
        UserProblemState.objects.bulk_create(
            [UserProblemState(user_id=user_id, problem_id=problem_id)], ignore_conflicts=True
        )
        state = UserProblemState.objects.select_for_update().get(user_id=user_id, problem_id=problem_id)
    return state


def _store_state(state: UserProblemState, user_id: int, problem_id: int, figures: tuple | None) -> None:
    if figures is None:
        state.delete()
        return
    values = dict(zip(STATE_COLUMNS[2:], figures))
    if any(getattr(state, k) != v for k, v in values.items()):
        UserProblemState.objects.filter(pk=state.pk).update(**values)


def _lock_users(user_ids) -> list[int]:
    """One writer per student at a time: their totals are replaced, not added to."""
    users = get_user_model().objects.select_for_update(no_key=True).filter(pk__in=user_ids).order_by("pk")
    return list(users.values_list("pk", flat=True))


def _add_to_problem(
    problem_id: int, submissions: int, accepted: int, solvers: int, first_solve: tuple[int, datetime] | None = None
) -> None:
    """Add to the problem's totals; a first solve also becomes the problem's first if it is earlier."""
    if not (submissions or accepted or solvers):
        return
    change: dict[str, Expression] = dict(
        submissions=F("submissions") + submissions, accepted=F("accepted") + accepted, solvers=F("solvers") + solvers
    )
    if first_solve:
        user_id, at = first_solve
        earlier = (
            Q(first_solved_at__isnull=True)
            | Q(first_solved_at__gt=at)
            | Q(first_solved_at=at, first_solver_id__gt=user_id)
        )
        change |= dict(
            first_solver_id=Case(
                When(earlier, then=Value(user_id)), default=F("first_solver_id"), output_field=IntegerField()
            ),
            first_solved_at=Case(
                When(earlier, then=Value(at)), default=F("first_solved_at"), output_field=DateTimeField()
            ),
        )
    if not ProblemTotals.objects.filter(problem_id=problem_id).update(**change):
        ProblemTotals.objects.bulk_create([ProblemTotals(problem_id=problem_id)], ignore_conflicts=True)
        ProblemTotals.objects.filter(problem_id=problem_id).update(**change)


def _refresh_first_solver(problem_id: int, without: int | None = None) -> None:
    solves = UserProblemState.objects.filter(problem_id=problem_id, first_accepted_at__isnull=False)
    if without is not None:
        solves = solves.exclude(user_id=without)
    first = solves.order_by("first_accepted_at", "user_id").values_list("user_id", "first_accepted_at").first()
    ProblemTotals.objects.filter(problem_id=problem_id).update(
        first_solver_id=first[0] if first else None, first_solved_at=first[1] if first else None
    )


def _refresh_users(user_ids: list[int], without_problem: int | None = None) -> None:
    """Replace these students' totals and period totals with what their states give (they are locked),
    not counting ``without_problem`` (one being deleted)."""
    states = UserProblemState.objects.filter(user_id__in=user_ids)
    if without_problem is not None:
        states = states.exclude(problem_id=without_problem)
    totals = UserTotals.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")
    before = dict(totals.values_list("user_id", "solved"))
    UserTotals.objects.filter(user_id__in=user_ids).delete()
    PeriodTotals.objects.filter(user_id__in=user_ids).delete()
    insert_rows(UserTotals, TOTALS_COLUMNS, totals_rows(states))
    for window in TRUNC:
        insert_rows(PeriodTotals, PERIOD_COLUMNS, period_rows(states, window))
    if len(user_ids) == 1:
        after = UserTotals.objects.filter(user_id=user_ids[0]).values_list("solved", flat=True).first() or 0
        _move_level(before.get(user_ids[0], 0), after)
    else:
        recount_levels()


def _move_level(old: int, new: int) -> None:
    if old == new:
        return
    for level, delta in sorted([(old, -1), (new, 1)]):
        if level > 0 and not SolvedLevel.objects.filter(solved=level).update(users=F("users") + delta):
            SolvedLevel.objects.bulk_create([SolvedLevel(solved=level, users=0)], ignore_conflicts=True)
            SolvedLevel.objects.filter(solved=level).update(users=F("users") + delta)


def recount_levels() -> None:
    counts = dict(UserTotals.objects.order_by().values("solved").annotate(n=Count("user")).values_list("solved", "n"))
    for level in sorted(set(counts) | set(SolvedLevel.objects.values_list("solved", flat=True))):
        if not SolvedLevel.objects.filter(solved=level).update(users=counts.get(level, 0)):
            SolvedLevel.objects.bulk_create([SolvedLevel(solved=level, users=counts[level])], ignore_conflicts=True)


# --------------------------------------------------------------------------
# A problem published or unpublished, a user or a problem deleted
# --------------------------------------------------------------------------


def refresh_problem_standings(problem_id: int, leaving: bool = False) -> None:
    """The problem was published or unpublished (or, ``leaving``, is being deleted): its solvers' totals count
    it, or stop counting it. ``judge.authoring.lifecycle`` changes ``published``; this only follows."""
    with transaction.atomic(savepoint=False):
        solvers = UserProblemState.objects.filter(problem_id=problem_id, first_accepted_at__isnull=False)
        user_ids = _lock_users(solvers.values("user_id"))
        if user_ids:
            _refresh_users(user_ids, without_problem=problem_id if leaving else None)


def forget_user(sender, instance, **kwargs) -> None:
    """Before a user is deleted (their rows go by cascade): take them out of the problems' totals."""
    states = list(UserProblemState.objects.select_for_update().filter(user_id=instance.pk).order_by("problem_id"))
    for state in states:
        _add_to_problem(state.problem_id, -state.attempts, -state.accepted, -int(state.solved))
    for problem_id in ProblemTotals.objects.filter(first_solver_id=instance.pk).values_list("problem_id", flat=True):
        _refresh_first_solver(problem_id, without=instance.pk)
    _move_level(UserTotals.objects.filter(user_id=instance.pk).values_list("solved", flat=True).first() or 0, 0)


def forget_problem(sender, instance, **kwargs) -> None:
    """Before a problem is deleted: its solvers stop counting it, as when it is unpublished."""
    refresh_problem_standings(instance.pk, leaving=True)


# --------------------------------------------------------------------------
# Everything from the submissions
# --------------------------------------------------------------------------


def rebuild_standings() -> dict[str, int]:
    """Recompute every standings row from the submissions, in one transaction; returns the row counts."""
    with transaction.atomic():
        if connection.vendor == "postgresql":  # verdicts recorded meanwhile wait, then apply on top
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {UserProblemState._meta.db_table} IN EXCLUSIVE MODE")
        for model in (UserProblemState, UserTotals, PeriodTotals, SolvedLevel, ProblemTotals):
            model.objects.all().delete()
        insert_rows(UserProblemState, STATE_COLUMNS, state_rows(Submission.objects.all()))
        insert_rows(ProblemTotals, PROBLEM_COLUMNS, problem_rows(UserProblemState.objects.all()))
        for problem_id in ProblemTotals.objects.filter(solvers__gt=0).values_list("problem_id", flat=True):
            _refresh_first_solver(problem_id)
        states = UserProblemState.objects.all()
        insert_rows(UserTotals, TOTALS_COLUMNS, totals_rows(states))
        for window in TRUNC:
            insert_rows(PeriodTotals, PERIOD_COLUMNS, period_rows(states, window))
        recount_levels()
    return {
        model.__name__: model.objects.count()
        for model in (UserProblemState, UserTotals, PeriodTotals, SolvedLevel, ProblemTotals)
    }
