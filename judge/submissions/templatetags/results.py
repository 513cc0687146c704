"""Grouping a submission's test rows so the page leads with what failed and folds the rest into a line."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import template

from engine.verdicts import TestStatus
from judge.submissions.display import grading_time

register = template.Library()


@dataclass
class ResultGroups:
    failing: list = field(default_factory=list)  # in test order; the first one is shown open
    passed: list = field(default_factory=list)
    not_run: list = field(default_factory=list)


@register.filter
def grouped(rows: list) -> ResultGroups:
    groups = ResultGroups()
    for row in rows:
        if row.status == TestStatus.PASSED:
            groups.passed.append(row)
        elif row.status == TestStatus.NOT_RUN:
            groups.not_run.append(row)
        else:
            groups.failing.append(row)
    return groups


@register.filter
def graded_in(submission) -> str:
    """The submission's total grading time as the student may see it (``display.grading_time``)."""
    return grading_time(submission)
