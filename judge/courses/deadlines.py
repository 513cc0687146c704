"""A student's own dates for an assignment, and what a Submit made at a given moment is worth.

Plain functions over plain data: the gradebook, the problem page and the tests call the same ones.
The order of precedence is the assignment's dates, then their section's override, then their own override
(each field left blank keeps the one before), then, in timed mode, their personal window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from judge.courses.models import LateRule

WINDOW_FIELDS = ("opens_at", "due_at", "closes_at", "late_rule", "late_multiplier", "late_penalty_per_day")
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Window:
    opens_at: datetime | None = None
    due_at: datetime | None = None
    closes_at: datetime | None = None
    late_rule: str = LateRule.NONE
    late_multiplier: float | None = None
    late_penalty_per_day: float | None = None
    timed: bool = False  # the personal window of a timed assignment

    @property
    def has_late_window(self) -> bool:
        return (
            self.late_rule not in ("", LateRule.NONE)
            and self.closes_at is not None
            and self.due_at is not None
            and self.closes_at > self.due_at
        )

    @property
    def last_moment(self) -> datetime | None:
        """After this, a Submit still grades but counts for nothing."""
        return self.closes_at if self.has_late_window else self.due_at

    # The one rule for "is this moment inside the window": credit, the timed start, the final codes and the
    # problem page's note all ask these three.
    def not_open_at(self, moment: datetime) -> bool:
        return self.opens_at is not None and moment < self.opens_at

    def closed_at(self, moment: datetime) -> bool:
        last = self.last_moment
        return last is not None and moment > last

    def contains(self, moment: datetime) -> bool:
        """From the opening (inclusive) to the last moment that counts (inclusive); unbounded where unset."""
        return not self.not_open_at(moment) and not self.closed_at(moment)


def window_of(assignment) -> Window:
    return overridden(Window(late_rule=LateRule.NONE), assignment)


def overridden(window: Window, source) -> Window:
    """``window`` with every field ``source`` (an assignment or an override) sets."""
    changes = {f: getattr(source, f) for f in WINDOW_FIELDS if getattr(source, f) not in (None, "")}
    return replace(window, **changes)


def personal_window(
    assignment, section_override=None, own_override=None, timed_start: datetime | None = None
) -> Window:
    window = window_of(assignment)
    for override in (section_override, own_override):
        if override is not None:
            window = overridden(window, override)
    if assignment.time_limit_minutes and timed_start is not None:
        end = timed_start + timedelta(minutes=assignment.time_limit_minutes)
        end = min(end, window.last_moment) if window.last_moment else end
        window = Window(opens_at=timed_start, due_at=end, closes_at=end, late_rule=LateRule.NONE, timed=True)
    return window


@dataclass(frozen=True)
class Credit:
    """What one Submit is worth: ``counts`` False outside the window (practice), ``late`` inside the late window."""

    value: float
    counts: bool
    late: bool = False
    adjusted: bool = False  # staff changed it by hand (``grades.adjusted``)


NOT_COUNTING = Credit(0.0, counts=False)


def credit_at(window: Window, moment: datetime, timed_mode: bool = False) -> Credit:
    if timed_mode and not window.timed:  # a timed assignment not started: nothing counts until it is
        return NOT_COUNTING
    if not window.contains(moment):
        return NOT_COUNTING
    if window.due_at is None or moment <= window.due_at:
        return Credit(1.0, counts=True)
    if window.late_rule == LateRule.MULTIPLIER:
        return Credit(clamp(window.late_multiplier if window.late_multiplier is not None else 1.0), True, late=True)
    days_late = math.ceil((moment - window.due_at) / DAY)
    return Credit(clamp(1.0 - (window.late_penalty_per_day or 0.0) * days_late), True, late=True)


def clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def time_left(until: datetime, now: datetime) -> str:
    """'2 h 13 min', '3 d 4 h', '45 s'; the caller says what it is until."""
    seconds = int((until - now).total_seconds())
    if seconds <= 0:
        return "0 min"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min"
    return f"{seconds} s"


def window_errors(opens_at, due_at, closes_at, late_rule, late_multiplier, late_penalty_per_day) -> list[str]:
    """What is wrong with a set of dates and a late rule, as an instructor would read it; empty when fine."""
    errors = []
    if opens_at and due_at and opens_at >= due_at:
        errors.append("The opening time must come before the due time.")
    if due_at and closes_at and closes_at < due_at:
        errors.append("The hard close must come at or after the due time.")
    if closes_at and not due_at:
        errors.append("A hard close needs a due time.")
    if late_rule == LateRule.MULTIPLIER and not (late_multiplier is not None and 0 <= late_multiplier <= 1):
        errors.append("A late multiplier must be between 0 and 1 (0.5 gives half credit).")
    if late_rule == LateRule.PER_DAY and not (late_penalty_per_day is not None and 0 < late_penalty_per_day <= 1):
        errors.append("A per-day penalty must be more than 0 and at most 1 (0.1 takes 10% per day late).")
    if late_rule in (LateRule.MULTIPLIER, LateRule.PER_DAY) and not closes_at:
        errors.append("A late rule needs a hard close: the end of the late window.")
    return errors
