"""Grades an app above keeps from a student for now, asked by the floors below it.

``judge.courses.release`` holds a student's grades on an assignment's problems until release; the courses app is
above the submissions and the standings (docs/contributors/architecture.md#the-layers), so it adds its rule here
when Django starts (its ``AppConfig.ready``), as it adds its Submit limits to ``admission``. Then a held accepted
Submit neither opens a problem that builds on it (``judge.submissions.composition``) nor counts on the student's
public profile (``judge.standings.progress``) before release; after release nothing is stored to catch up, since
the hold is read from the dates each time. With no rule, nothing is held.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from django.db.models import Q

# (user, problem ids) -> {problem id: the time their Submits on it are held from (None: all of them)}
Rule = Callable[[object, set[int]], dict[int, datetime | None]]
_rules: list[Rule] = []
# () -> {student id: what ``held_since`` gives them, for the problems they solved}: everyone held now
BoardRule = Callable[[], dict[int, dict[int, datetime | None]]]
_board_rules: list[BoardRule] = []


def add_rule(rule: Rule) -> None:
    if rule not in _rules:
        _rules.append(rule)


def add_board_rule(rule: BoardRule) -> None:
    if rule not in _board_rules:
        _board_rules.append(rule)


def held_everywhere() -> dict[int, dict[int, datetime | None]]:
    """``held_since`` for every student something is held from now, on the problems they solved (the site-wide
    standings ask: holds are rare, so this is a handful of students, not the board)."""
    held: dict[int, dict[int, datetime | None]] = {}
    for rule in _board_rules:
        for user_id, theirs in rule().items():
            mine = held.setdefault(user_id, {})
            for problem_id, since in theirs.items():
                kept = mine.get(problem_id, since)
                mine[problem_id] = None if since is None or kept is None else min(since, kept)
    return held


def held_since(user, problem_ids: Iterable[int]) -> dict[int, datetime | None]:
    """Per problem whose grades are held from ``user``: their Submits created from then on are held (None: all)."""
    problem_ids = set(problem_ids)
    if not _rules or not problem_ids or not getattr(user, "is_authenticated", False):
        return {}
    held: dict[int, datetime | None] = {}
    for rule in _rules:
        for problem_id, since in rule(user, problem_ids).items():
            kept = held.get(problem_id, since)
            held[problem_id] = None if since is None or kept is None else min(since, kept)
    return held


def solve_shown(problem_id: int, first_accepted_at: datetime | None, held: dict[int, datetime | None]) -> bool:
    """Whether a solve first reached at ``first_accepted_at`` shows: it was reached before any hold began."""
    if first_accepted_at is None:
        return False
    if problem_id not in held:
        return True
    since = held[problem_id]
    return since is not None and first_accepted_at < since


def unheld(problem_id: int, held: dict[int, datetime | None]) -> Q:
    """A filter on a student's Submits of one problem that leaves out the held ones."""
    if problem_id not in held:
        return Q()
    since = held[problem_id]
    return Q(pk__in=[]) if since is None else Q(created_at__lt=since)
