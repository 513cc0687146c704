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


class Note(models.Model):
    """The student's own note on a problem, in Markdown: private, shown to no one else, staff included."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notes")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    text = models.TextField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "problem"], name="one_note_per_problem")]

    def __str__(self) -> str:
        return f"note on {self.problem_id} by {self.user_id}"


class Bookmark(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bookmarks")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "problem"], name="one_bookmark_per_problem")]

    def __str__(self) -> str:
        return f"bookmark on {self.problem_id} by {self.user_id}"


FONT_SIZES = (12, 13, 14, 15, 16, 18, 20)
TAB_WIDTHS = (2, 4, 8)


class Theme(models.TextChoices):
    SYSTEM = "system", "As the system says"
    LIGHT = "light", "Light"
    DARK = "dark", "Dark"


class Keys(models.TextChoices):
    DEFAULT = "default", "Default"
    VIM = "vim", "Vim"
    EMACS = "emacs", "Emacs"


class Preferences(models.Model):
    """How the site and its editor look and type for one student, on every device they sign in on.  A visitor who
    is not signed in keeps the same choices in their browser (judge/static/judge/prefs.js)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="preferences"
    )
    font_size = models.PositiveSmallIntegerField(choices=[(s, f"{s} px") for s in FONT_SIZES], default=14)
    theme = models.CharField(max_length=10, choices=Theme.choices, default=Theme.SYSTEM)
    keys = models.CharField(max_length=10, choices=Keys.choices, default=Keys.DEFAULT)
    tab_width = models.PositiveSmallIntegerField(choices=[(w, str(w)) for w in TAB_WIDTHS], default=4)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"
