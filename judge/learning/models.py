"""What the judge remembers about one student working on one problem."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from judge.problems.models import Problem


class Draft(models.Model):
    """The editor's content, autosaved so that it survives a reload or another device."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    code = models.TextField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "problem"], name="one_draft_per_problem")]

    def __str__(self) -> str:
        return f"draft of {self.problem_id} by {self.user_id}"


class HintReveal(models.Model):
    """A hint the student chose to see; hints are revealed in order, one at a time."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hint_reveals")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    index = models.PositiveSmallIntegerField(help_text="0 for the first hint")
    revealed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["user", "problem", "index"], name="one_reveal_per_hint")]

    def __str__(self) -> str:
        return f"hint {self.index + 1} of {self.problem_id} for {self.user_id}"
