"""Standings kept with the verdicts, so that no page aggregates over all submissions.

Every row here can be rebuilt from submissions (``manage.py rebuild_standings``);
the submissions stay the source of truth. ``judge.standings.services`` keeps
them current in the transaction that records a verdict.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from engine.verdicts import Verdict
from engine.verdicts import choices as verdict_choices
from judge.problems.models import Problem


class Period(models.TextChoices):
    """Which solves a standings table counts: those first reached in this calendar period."""

    ALL = "all", "All time"
    MONTH = "month", "This month"
    WEEK = "week", "This week"


class UserProblemState(models.Model):
    """One student on one problem: graded submits, accepted ones, the first accepted, the best verdict."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    attempts = models.PositiveIntegerField(default=0)
    accepted = models.PositiveIntegerField(default=0)
    first_accepted_at = models.DateTimeField(null=True, blank=True)
    best_verdict = models.CharField(max_length=30, choices=verdict_choices(Verdict), blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "problem"], name="one_state_per_user_problem")]
        indexes = [models.Index(fields=["problem", "first_accepted_at", "user"], name="state_first_solve")]

    @property
    def solved(self) -> bool:
        return self.first_accepted_at is not None


class UserTotals(models.Model):
    """A ranked student: published problems solved, and when that count was reached. Absent below one."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+")
    solved = models.PositiveIntegerField()
    reached_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["-solved", "reached_at", "user"], name="totals_standing")]


class PeriodTotals(models.Model):
    """The same for one calendar week or month: solves first reached in it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    window = models.CharField(max_length=10, choices=Period.choices)
    starts_at = models.DateTimeField()
    solved = models.PositiveIntegerField()
    reached_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "window", "starts_at"], name="one_period_per_user")]
        indexes = [
            models.Index(fields=["window", "starts_at", "-solved", "reached_at", "user"], name="period_standing")
        ]


class SolvedLevel(models.Model):
    """How many ranked students solved exactly ``solved`` problems: a rank is one plus the levels above."""

    solved = models.PositiveIntegerField(primary_key=True)
    users = models.IntegerField(default=0)


class ProblemTotals(models.Model):
    """One problem's graded submits, accepted ones, solvers, and who solved it first."""

    problem = models.OneToOneField(Problem, on_delete=models.CASCADE, primary_key=True, related_name="+")
    submissions = models.PositiveIntegerField(default=0)
    accepted = models.PositiveIntegerField(default=0)
    solvers = models.PositiveIntegerField(default=0)
    first_solver = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    first_solved_at = models.DateTimeField(null=True, blank=True)

    @property
    def acceptance_rate(self) -> float | None:
        return self.accepted / self.submissions if self.submissions else None
