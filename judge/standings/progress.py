"""One student's progress for their profile: solves, rank, activity over time, solves by tag."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Count
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from engine.verdicts import Verdict
from judge.problems.models import Problem
from judge.standings.models import Period, UserProblemState
from judge.standings.ranking import board
from judge.submissions.models import Kind, Submission
from judge.submissions.withheld import held_since, solve_shown

CALENDAR_WEEKS = 53


@dataclass(frozen=True)
class Solved:
    problem: Problem
    at: datetime


@dataclass(frozen=True)
class Attempted:
    problem: Problem
    attempts: int
    best_verdict: str

    @property
    def best_label(self) -> str:
        return Verdict(self.best_verdict).label if self.best_verdict else ""


@dataclass(frozen=True)
class TagProgress:
    tag: str
    solved: int
    total: int


@dataclass(frozen=True)
class Day:
    day: date
    submits: int
    solves: int

    @property
    def level(self) -> int:
        """0 to 4, as the calendar shades it."""
        return sum(self.submits >= step for step in (1, 3, 6, 10))


@dataclass
class Progress:
    """What the profile shows; ``calendar_html`` is made here, as 371 cells through the template engine cost
    more than all the queries of the page."""

    solved: list[Solved]
    attempted: list[Attempted]
    by_tag: list[TagProgress]
    rank: int | None
    ranked: int
    weeks: list[list[Day | None]] = field(default_factory=list)
    active_days: int = 0
    submits_this_year: int = 0

    @property
    def calendar_html(self) -> str:
        # _cell makes each day's markup from dates and counts, and format_html escaped the rest.
        weeks = (
            format_html('<div class="week">{}</div>', mark_safe("".join(_cell(day) for day in week)))  # noqa: S308
            for week in self.weeks
        )
        return mark_safe("".join(weeks))  # noqa: S308


def _cell(day: Day | None) -> str:
    if day is None:
        return '<span class="day future"></span>'
    title = f"{day.day:%d %b %Y}: {day.submits} submission{'s' * (day.submits != 1)}"
    if day.solves:
        title += f", {day.solves} solved"
    solved = " solved" if day.solves else ""
    return (
        f'<span class="day level-{day.level}{solved}" data-day="{day.day.isoformat()}" '
        f'data-submits="{day.submits}" title="{title}"></span>'
    )


def progress_of(user, today: date | None = None) -> Progress:
    problems = {p.pk: p for p in Problem.objects.filter(published=True).only("slug", "title", "difficulty", "tags")}
    states = list(UserProblemState.objects.filter(user=user, problem_id__in=problems))
    # Grades an assignment holds from the student are not shown to anyone yet: a solve reached only by held
    # Submits shows as an attempt, and a held problem's best verdict is left out.
    held = held_since(user, {s.problem_id for s in states})
    shown = {s.problem_id for s in states if solve_shown(s.problem_id, s.first_accepted_at, held)}
    solved = sorted(
        (
            Solved(problems[s.problem_id], s.first_accepted_at)
            for s in states
            if s.problem_id in shown and s.first_accepted_at is not None
        ),
        key=lambda item: item.at,
    )
    attempted = [
        Attempted(problems[s.problem_id], s.attempts, "" if s.problem_id in held else s.best_verdict)
        for s in states
        if s.problem_id not in shown
    ]
    the_board = board(Period.ALL)
    # The kept total counts the same solves (published problems, accepted): no query of its own.
    progress = Progress(
        solved,
        sorted(attempted, key=lambda a: a.problem.title),
        tag_progress(problems, solved),
        the_board.rank(len(solved)) if solved else None,
        the_board.total,
    )
    solve_days = [timezone.localtime(item.at).date() for item in solved]
    fill_calendar(progress, user, solve_days, today or timezone.localdate())
    return progress


def tag_progress(problems: dict[int, Problem], solved: list[Solved]) -> list[TagProgress]:
    totals = Counter(tag for p in problems.values() for tag in p.tags)
    done = Counter(tag for item in solved for tag in item.problem.tags)
    return sorted(
        (TagProgress(tag, done[tag], n) for tag, n in totals.items()), key=lambda t: (-t.solved / t.total, t.tag)
    )


def fill_calendar(progress: Progress, user, solve_days: list[date], today: date) -> None:
    """Graded and pending Submits per day, in columns of weeks (Monday first) ending with this one."""
    first = today - timedelta(days=today.weekday() + 7 * (CALENDAR_WEEKS - 1))
    since = timezone.make_aware(datetime.combine(first, datetime.min.time()))
    per_day = dict(
        Submission.objects.filter(user=user, kind=Kind.SUBMIT, created_at__gte=since)
        .order_by()
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(n=Count("*"))
        .values_list("day", "n")
    )
    solves = Counter(day for day in solve_days if day >= first)
    progress.weeks = [
        [
            Day(d, per_day.get(d, 0), solves[d]) if d <= today else None
            for d in (first + timedelta(days=7 * w + i) for i in range(7))
        ]
        for w in range(CALENDAR_WEEKS)
    ]
    progress.active_days = len(per_day)
    progress.submits_this_year = sum(per_day.values())
