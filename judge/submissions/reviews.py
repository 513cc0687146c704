"""Spaced review: a solved problem comes back for a re-solve from a blank page 3, 10 and 30 days later.

Nothing is stored for it: the schedule is read from the submissions themselves.  The first accepted Submit starts
it; each accepted review Submit (``Kind.REVIEW``) made once the problem was due moves it to the next interval,
counted from that review; one that fails, or a review made early, moves nothing.  A rejudge that takes the first
solve away takes the problem out of the queue, as it takes it out of the standings.  Review Submits are graded on
every test like any Submit but count nowhere else: the standings, a course's credit, the calendar, the speed
figures and the editorial all read ``Kind.SUBMIT`` alone.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Min

from engine.verdicts import Verdict
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission

INTERVALS = (timedelta(days=3), timedelta(days=10), timedelta(days=30))


def schedule(solved_at: datetime, reviews_passed: list[datetime]) -> tuple[int, datetime | None]:
    """(reviews done, when the next is due or None after the last) for a problem first solved at ``solved_at``
    whose accepted review Submits were made at ``reviews_passed``."""
    done, due = 0, solved_at + INTERVALS[0]
    for at in sorted(reviews_passed):
        if at >= due:
            done += 1
            if done == len(INTERVALS):
                return done, None
            due = at + INTERVALS[done]
    return done, due


@dataclass(frozen=True)
class ReviewItem:
    problem: Problem
    done: int  # reviews passed so far, of len(INTERVALS)
    due_at: datetime | None

    def is_due(self, now: datetime) -> bool:
        return self.due_at is not None and self.due_at <= now


def reviews_of(user, problems: list[Problem] | None = None) -> list[ReviewItem]:
    """Every problem this user solved (among ``problems``, else all), with where its review stands; soonest due
    first, finished reviews last."""
    if not user.is_authenticated:
        return []
    accepted = Submission.objects.filter(user=user, status=Status.DONE, verdict=Verdict.ACCEPTED)
    if problems is not None:
        accepted = accepted.filter(problem__in=problems)
    solved = dict(
        accepted.filter(kind=Kind.SUBMIT)
        .order_by()
        .values("problem_id")
        .annotate(first=Min("created_at"))
        .values_list("problem_id", "first")
    )
    passed: dict[int, list[datetime]] = defaultdict(list)
    for problem_id, at in accepted.filter(kind=Kind.REVIEW).values_list("problem_id", "created_at"):
        passed[problem_id].append(at)
    by_id = Problem.objects.in_bulk(list(solved))
    items = [ReviewItem(by_id[pid], *schedule(first, passed[pid])) for pid, first in solved.items() if pid in by_id]
    return sorted(
        items, key=lambda i: (i.due_at is None, i.due_at.timestamp() if i.due_at else 0, i.problem.path_order)
    )


@dataclass(frozen=True)
class ReviewQueue:
    due: list[ReviewItem]  # due now, the longest waiting first
    coming: list[ReviewItem]  # the next few
    finished: int  # problems reviewed three times


def review_queue(user, now: datetime, coming: int = 5) -> ReviewQueue:
    """What the student's profile shows of their review."""
    items = reviews_of(user)
    return ReviewQueue(
        due=[i for i in items if i.is_due(now)],
        coming=[i for i in items if i.due_at is not None and not i.is_due(now)][:coming],
        finished=sum(1 for i in items if i.due_at is None),
    )


def review_of(user, problem: Problem) -> ReviewItem | None:
    found = reviews_of(user, [problem])
    return found[0] if found else None


def not_due_reason(user, problem: Problem, now: datetime) -> str:
    """Why a review Submit of this problem is refused now, or "" when it is due."""
    item = review_of(user, problem)
    if item is None:
        return "solve this problem with a Submit first; its review comes 3 days after"
    if item.due_at is None:
        return "all three reviews of this problem are done"
    if not item.is_due(now):
        return f"this problem's next review is due on {item.due_at:%Y-%m-%d}; until then a Submit counts as usual"
    return ""
