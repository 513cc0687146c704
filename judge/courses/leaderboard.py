"""A course's leaderboard: the standings the site keeps with each verdict (``judge.standings``), restricted to
the course's students or one section and ranked among them; a student who hides their name stays anonymous."""

from __future__ import annotations

from collections import Counter

from judge.courses.models import Course, Membership, Role, Section
from judge.standings.models import Period, UserTotals
from judge.standings.ranking import ORDER, Board, Standing, with_names


def course_standings(course: Course, section: Section | None = None) -> tuple[Board, list[Standing]]:
    members = Membership.objects.filter(course=course, role=Role.STUDENT)
    if section is not None:
        members = members.filter(section=section)
    rows = list(
        UserTotals.objects.filter(user_id__in=members.values("user_id"), solved__gt=0)
        .order_by(*ORDER)
        .values_list("user_id", "solved", "reached_at")
    )
    board = Board(Period.ALL, dict(Counter(solved for _, solved, _ in rows)))
    return board, with_names([rows], board)[0]
