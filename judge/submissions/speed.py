"""Where an accepted Submit's speed stands: its percentile among the problem's accepted solutions, and the
problem's speed ranking.  The measurement itself is the engine's (``engine/speed.py``); the site stores one
rounded ratio per Submit (``Submission.speed``), the one a student is shown, and beside it the ratio to four
figures, which percentiles and the ranking's order compare (a figure stored before there was one compares
its rounded ratio).

A student counts once, with their fastest accepted Submit: ten submissions of the same code move nobody
else's percentile, and nobody climbs the ranking by submitting often.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import FloatField, Min, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

from engine.speed import VECTORISED_WITHIN, percentile, round_figure
from engine.verdicts import Verdict
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.withheld import held_everywhere

RANKING_SIZE = 50
ANONYMOUS = "anonymous"


def measured(problem_id: int):
    """The problem's accepted Submits with a speed figure, as (user, ratio) rows (the precise ratio)."""
    return (
        Submission.objects.filter(
            problem_id=problem_id, kind=Kind.SUBMIT, status=Status.DONE, verdict=Verdict.ACCEPTED, speed__isnull=False
        )
        .annotate(
            ratio=Coalesce(Cast(KT("speed__ratio_precise"), FloatField()), Cast(KT("speed__ratio"), FloatField()))
        )
        .filter(ratio__isnull=False)
    )


def best_ratios(problem_id: int) -> dict[int, float]:
    """Each student's best (lowest) precise ratio on the problem: user id -> ratio. A Submit whose grade a course
    holds from its student (``withheld``) is not ranked until release: being ranked would say it was accepted."""
    rows = measured(problem_id)
    for user_id, theirs in held_everywhere().items():
        if problem_id in theirs:
            since = theirs[problem_id]
            rows = rows.exclude(Q(user_id=user_id) & (Q() if since is None else Q(created_at__gte=since)))
    rows = rows.values("user_id").annotate(best=Min("ratio")).values_list("user_id", "best")
    return {user_id: float(best) for user_id, best in rows}


@dataclass
class Standing:
    ratio: float
    vectorised: bool
    percentile: int | None  # faster than this share (%) of the other students' best; None: nobody else yet
    others: int


def standing(submission: Submission) -> Standing | None:
    """Where this Submit's figure stands among the other students' best; None without a figure."""
    speed = submission.speed or {}
    ratio = speed.get("ratio")
    if ratio is None or submission.verdict != Verdict.ACCEPTED:  # a rejudge may have refused it since
        return None
    precise = speed.get("ratio_precise") or ratio
    others = [r for user_id, r in best_ratios(submission.problem_id).items() if user_id != submission.user_id]
    return Standing(ratio, ratio <= VECTORISED_WITHIN, percentile(precise, others), len(others))


@dataclass
class Ranked:
    rank: int
    username: str
    ratio: float
    vectorised: bool
    mine: bool


def ranking(problem: Problem, user=None, size: int = RANKING_SIZE) -> list[Ranked]:
    """The problem's fastest students, one row each (their best ratio, rounded as a Submit shows it), in the
    order of the precise ratios; equal shown ratios share a rank."""
    best = best_ratios(problem.pk)
    # Who hides their name from the standings (their profile says so) is "anonymous" here too.
    names = {
        pk: ANONYMOUS if hidden else name
        for pk, name, hidden in get_user_model()
        .objects.filter(pk__in=best)
        .values_list("pk", "username", "profile__hide_from_standings")
    }
    ordered = sorted(best.items(), key=lambda item: (item[1], names.get(item[0], "")))
    rows, rank, previous = [], 0, None
    for position, (user_id, precise) in enumerate(ordered[:size], start=1):
        ratio = round_figure(precise)
        if ratio != previous:
            rank, previous = position, ratio
        rows.append(
            Ranked(
                rank, names.get(user_id, ""), ratio, ratio <= VECTORISED_WITHIN, user is not None and user_id == user.pk
            )
        )
    return rows


def accepted_on_its_test_set(submission: Submission):
    """The accepted Submits of ``submission``'s problem graded on its test set (everyone's, itself included)."""
    return Submission.objects.filter(
        problem_id=submission.problem_id,
        test_set_id=submission.test_set_id,
        kind=Kind.SUBMIT,
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
    )


def figure_of_same_code(submission: Submission, key: str) -> dict | None:
    """The figure of an earlier accepted Submit of the same problem and test set whose code is this one's
    (``engine.speed.code_key``), to be stored again with ``same_code_as``: the Submit it was measured for.
    None when no such Submit has a figure."""
    rows = (
        accepted_on_its_test_set(submission)
        .filter(speed__code_key=key)
        .exclude(pk=submission.pk)
        .order_by("pk")
        .values_list("pk", "speed")
    )
    for pk, speed in rows[:20]:
        if speed is not None and speed.get("ratio") is not None:
            return speed | {"same_code_as": speed.get("same_code_as") or pk}
    return None


def others_of(submission: Submission) -> list[float]:
    """The precise figures of the other students' best Submits of the problem: what this one will be ranked among."""
    return [r for user_id, r in best_ratios(submission.problem_id).items() if user_id != submission.user_id]


def timed_lately(submission: Submission, within_s: float) -> Submission | None:
    """The student's latest Submit of the same problem and test set whose own code was timed (not given another
    Submit's figure) and whose verdict came less than ``within_s`` seconds ago; None when there is none."""
    if within_s <= 0:
        return None
    return (
        accepted_on_its_test_set(submission)
        .filter(
            user_id=submission.user_id,
            speed__has_key="code_key",
            finished_at__gte=timezone.now() - timedelta(seconds=within_s),
        )
        .exclude(pk=submission.pk)
        .exclude(speed__has_key="same_code_as")
        .order_by("-finished_at")
        .first()
    )


def not_timed_message(lately: Submission, within_s: float) -> str:
    """What a Submit not timed because of ``lately`` says (the page shows it as "not measured (...)")."""
    minutes = max(1, round(within_s / 60))
    return (
        f"your Submit #{lately.pk} of this problem was timed less than {minutes} minutes ago, and a student's "
        f"new code for a problem is timed at most once every {minutes} minutes; send this code again after that "
        "for a figure of its own"
    )
