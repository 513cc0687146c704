"""Who has solved the most problems.

A user's score is the number of published problems with at least one accepted
Submit. Ties go to whoever reached that number first: the time of the accepted
submission that completed their count.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Min

from judge.submissions.queries import accepted_submits


@dataclass(frozen=True)
class Standing:
    rank: int
    username: str
    solved: int
    reached_at: datetime


def leaderboard(limit: int = 100) -> list[Standing]:
    firsts = (accepted_submits().filter(problem__published=True)
              .values("user_id", "problem_id").annotate(at=Min("created_at")).values_list("user_id", "at"))
    solved_at: dict[int, list[datetime]] = defaultdict(list)
    for user_id, at in firsts:
        solved_at[user_id].append(at)
    names = dict(get_user_model().objects.filter(pk__in=solved_at).values_list("pk", "username"))
    order = sorted(solved_at, key=lambda uid: (-len(solved_at[uid]), max(solved_at[uid]), names[uid]))
    return [Standing(rank, names[uid], len(solved_at[uid]), max(solved_at[uid]))
            for rank, uid in enumerate(order[:limit], start=1)]
