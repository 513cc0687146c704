"""A solution a student chose to show others who solved the same problem, the votes it gets, and what staff did
to it.  Who may read one is decided in ``access.py`` alone."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from judge.problems.models import Problem
from judge.submissions.models import Submission


class PublishedSolution(models.Model):
    """One accepted Submit its author published.  Withdrawing keeps the row (``withdrawn_at``), so that a hidden
    solution stays hidden when its author publishes it again, and its votes come back with it."""

    submission = models.OneToOneField(Submission, on_delete=models.CASCADE, related_name="publication")
    # The submission's own, copied so the problem's list needs no join to find its rows.
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    published_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Staff hid it: nobody but staff and its author reads it, and the author reads why.
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hidden_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["published_at", "pk"]
        indexes = [models.Index(fields=["problem", "withdrawn_at"], name="solutions_of_a_problem")]

    def __str__(self) -> str:
        return f"solution #{self.pk} (submission {self.submission_id})"

    @property
    def listed(self) -> bool:
        return self.withdrawn_at is None and self.hidden_at is None


class Vote(models.Model):
    """One per person and solution; never on one's own (``services.vote``)."""

    solution = models.ForeignKey(PublishedSolution, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["solution", "user"], name="one_vote_per_solution")]


class Moderation(models.TextChoices):
    HIDE = "hide", "Hid"
    SHOW = "show", "Showed again"


class ModerationEntry(models.Model):
    """The audit of what staff did to published solutions: who, when, and why."""

    solution = models.ForeignKey(PublishedSolution, on_delete=models.CASCADE, related_name="moderation")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=10, choices=Moderation.choices)
    reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "moderation entries"
