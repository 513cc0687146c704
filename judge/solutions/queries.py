"""The solutions published for a problem, in the order a reader asked for."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, FloatField, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce

from engine.speed import VECTORISED_WITHIN
from judge.problems.models import Problem
from judge.solutions.models import PublishedSolution, Vote
from judge.submissions.models import Submission
from judge.submissions.queries import accepted_submits
from judge.submissions.speed import ANONYMOUS

ORDERS = {"speed": "fastest first (CPU time against the reference's)", "votes": "most votes first"}


@dataclass
class Listed:
    solution: PublishedSolution
    author: str
    ratio: float | None  # the speed figure the Submit's page shows; None: not measured
    vectorised: bool
    votes: int
    voted: bool  # by the reader
    mine: bool


def published(problem: Problem, staff: bool = False) -> QuerySet[PublishedSolution]:
    rows = PublishedSolution.objects.filter(problem=problem, withdrawn_at__isnull=True)
    return rows if staff else rows.filter(hidden_at__isnull=True)


def solutions_for(problem: Problem, reader, order: str = "speed") -> list[Listed]:
    rows = (
        published(problem, reader.is_staff)
        .select_related("submission", "user", "user__profile")
        # The list shows each Submit's speed figure only: not its code or its results (arrays of every test).
        .defer(
            "submission__code",
            "submission__results",
            "submission__properties",
            "submission__sandbox",
            "submission__custom_expected",
        )
        .annotate(
            vote_count=Count("votes"),
            ratio=Coalesce(
                Cast(KeyTextTransform("ratio_precise", "submission__speed"), FloatField()),
                Cast(KeyTextTransform("ratio", "submission__speed"), FloatField()),
            ),
        )
    )
    if order == "votes":
        rows = rows.order_by("-vote_count", F("ratio").asc(nulls_last=True), "published_at", "pk")
    else:
        rows = rows.order_by(F("ratio").asc(nulls_last=True), "-vote_count", "published_at", "pk")
    mine = set(Vote.objects.filter(user=reader, solution__problem=problem).values_list("solution_id", flat=True))
    return [listed(row, reader, row.vote_count, row.pk in mine) for row in rows]


def listed(solution: PublishedSolution, reader, votes: int, voted: bool) -> Listed:
    speed = solution.submission.speed or {}
    ratio = speed.get("ratio")
    profile = getattr(solution.user, "profile", None)
    hidden_name = bool(profile and profile.hide_from_standings) and solution.user_id != reader.pk
    return Listed(
        solution,
        ANONYMOUS if hidden_name else solution.user.username,
        ratio,
        ratio is not None and ratio <= VECTORISED_WITHIN,
        votes,
        voted,
        solution.user_id == reader.pk,
    )


def own_accepted(user, problem: Problem) -> QuerySet[Submission]:
    """The reader's accepted Submits on the problem, newest first: what a published solution is compared with."""
    return accepted_submits().filter(user=user, problem=problem).order_by("-created_at", "-pk")
