"""Read-only questions about submissions, for pages: statistics, marks, history.

Only Submit attempts that finished count; Run attempts (visible examples) never do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Min, Q, QuerySet

from judge.grading.verdicts import Verdict
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission

STATS_CACHE_KEY = "judge:problem-stats:v1"


@dataclass(frozen=True)
class ProblemStats:
    submissions: int = 0
    accepted: int = 0
    solvers: int = 0

    @property
    def acceptance_rate(self) -> float | None:
        return self.accepted / self.submissions if self.submissions else None


def graded_submits() -> QuerySet[Submission]:
    return Submission.objects.filter(kind=Kind.SUBMIT, status=Status.DONE)


def accepted_submits() -> QuerySet[Submission]:
    return graded_submits().filter(verdict=Verdict.ACCEPTED)


def problem_stats() -> dict[int, ProblemStats]:
    """Per problem id: graded submits, accepted ones, and distinct users who solved it.

    Shared by every visitor and costly to aggregate, so it is cached for
    ``PROBLEM_STATS_CACHE_S`` seconds; each student's own marks never are.
    """
    ttl = settings.PROBLEM_STATS_CACHE_S
    if ttl <= 0:
        return _problem_stats()
    stats = cache.get(STATS_CACHE_KEY)
    if stats is None:
        stats = _problem_stats()
        cache.set(STATS_CACHE_KEY, stats, ttl)
    return stats


def _problem_stats() -> dict[int, ProblemStats]:
    accepted = Q(verdict=Verdict.ACCEPTED)
    rows = graded_submits().values("problem_id").annotate(
        total=Count("id"), ok=Count("id", filter=accepted), solvers=Count("user_id", filter=accepted, distinct=True),
    )
    return {row["problem_id"]: ProblemStats(row["total"], row["ok"], row["solvers"]) for row in rows}


def solved_and_attempted(user) -> tuple[set[int], set[int]]:
    """Problem ids this user solved, and those they submitted to without solving yet."""
    if not user.is_authenticated:
        return set(), set()
    rows = graded_submits().filter(user=user).order_by().values_list("problem_id", "verdict").distinct()
    solved = {pid for pid, verdict in rows if verdict == Verdict.ACCEPTED}
    return solved, {pid for pid, _ in rows} - solved


def first_solves(user) -> list[tuple[Problem, datetime]]:
    """Published problems this user solved, with when they first did, earliest first."""
    firsts = dict(accepted_submits().filter(user=user, problem__published=True)
                  .values("problem_id").annotate(at=Min("created_at")).values_list("problem_id", "at"))
    problems = Problem.objects.filter(pk__in=firsts).only("slug", "title", "difficulty")
    return sorted(((p, firsts[p.pk]) for p in problems), key=lambda pair: pair[1])


def history(user, problem: Problem, limit: int = 50) -> QuerySet[Submission]:
    """This user's attempts on this problem, newest first, without the heavy result data."""
    return (Submission.objects.filter(user=user, problem=problem)
            .only("id", "kind", "status", "verdict", "created_at", "problem_id", "user_id")[:limit])
