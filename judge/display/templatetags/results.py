"""Grouping a submission's test rows so the page leads with what failed and folds the rest into a line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django import template

from engine.verdicts import TestStatus
from judge.display.results import grading_time

register = template.Library()


@dataclass
class ResultGroups:
    failing: list = field(default_factory=list)  # in test order, one row per way of failing; the first is open
    passed: list = field(default_factory=list)
    not_run: list = field(default_factory=list)


@register.filter
def grouped(rows: list) -> ResultGroups:
    """The rows by outcome; failing rows that failed the same way fold into the first of them (``same_on``),
    so the same traceback on eleven tests is one entry naming them, led by the first failing case."""
    groups, first_of = ResultGroups(), dict[tuple[Any, ...], Any]()
    for row in rows:
        if row.status == TestStatus.PASSED:
            groups.passed.append(row)
        elif row.status == TestStatus.NOT_RUN:
            groups.not_run.append(row)
        elif (key := failure_key(row)) in first_of:
            first_of[key].same_on.append(row.name)
        else:
            row.same_on = []
            groups.failing.append(row)
            first_of[key] = row
            if (alias := raised_type(row)) and alias not in first_of:
                first_of[alias] = row  # the hidden tests that raised the same built-in type join it
    return groups


def failure_key(row) -> tuple:
    """Rows with the same key failed the same way: the same check, message, traceback and named mistake."""
    if row.hidden and row.status == TestStatus.RUNTIME_ERROR and (raised := raised_type(row)):
        return raised
    frames = tuple((f.get("line"), f.get("function"), f.get("text")) for f in row.traceback if isinstance(f, dict))
    return row.status, row.hidden, row.message, frames, row.misconception


HIDDEN_RAISED = re.compile(r"^your code raised (\S+); on hidden tests")


def raised_type(row) -> tuple | None:
    """("raised", type) for a runtime error: a visible one's message starts with the type, a hidden one names it."""
    if row.status != TestStatus.RUNTIME_ERROR:
        return None
    found = HIDDEN_RAISED.match(row.message) if row.hidden else re.match(r"^(\w+): ", row.message)
    return ("raised", found.group(1), row.misconception) if found else None


@register.filter
def graded_in(submission) -> str:
    """The submission's total grading time as the student may see it (``results.grading_time``)."""
    return grading_time(submission)
