"""A course's leaderboard: the standings the site keeps with each verdict (``judge.standings``), restricted to
the course's students or one section and ranked among them; a student who hides their name stays anonymous. A
solve an assignment holds from its student is not counted until release, as on the site's board."""

from __future__ import annotations

from collections import Counter

from judge.courses.models import Course, Membership, Role, Section
from judge.standings.models import Period, UserTotals
from judge.standings.ranking import ORDER, Board, Standing, held_solves, moved_rows, with_names


def course_standings(course: Course, section: Section | None = None) -> tuple[Board, list[Standing]]:
    members = Membership.objects.filter(course=course, role=Role.STUDENT)
    if section is not None:
        members = members.filter(section=section)
    rows = list(
        UserTotals.objects.filter(user_id__in=members.values("user_id"), solved__gt=0)
        .order_by(*ORDER)
        .values_list("user_id", "solved", "reached_at")
    )
    moved = moved_rows(Period.ALL, held_solves())
    if moved:  # a student whose every solve is held has no row yet
        shown = [(u, *(moved[u] or (0, at))) if u in moved else (u, n, at) for u, n, at in rows]
        rows = sorted((r for r in shown if r[1] > 0), key=lambda r: (-r[1], r[2], r[0]))
    board = Board(Period.ALL, dict(Counter(solved for _, solved, _ in rows)))
    return board, with_names([rows], board)[0]
