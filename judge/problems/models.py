from __future__ import annotations

from django.db import models
from django.urls import reverse


class Difficulty(models.TextChoices):
    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"


class Problem(models.Model):
    """A problem as loaded from its package in ``problems/<slug>/``."""

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    summary = models.CharField(max_length=300, blank=True)
    difficulty = models.CharField(max_length=10, choices=Difficulty.choices)
    tags = models.JSONField(default=list)
    prerequisites = models.JSONField(default=list)
    # Position on the learning path (prerequisites first), set by sync.
    path_order = models.PositiveIntegerField(default=0)

    statement_md = models.TextField()
    theory_md = models.TextField(blank=True)
    hints = models.JSONField(default=list)
    starter_code = models.TextField()
    solution_code = models.TextField()

    function_name = models.CharField(max_length=80)
    params = models.JSONField(default=list)
    time_limit_s = models.FloatField()
    memory_mb = models.PositiveIntegerField()
    rtol = models.FloatField()
    atol = models.FloatField()

    package_hash = models.CharField(max_length=64)
    current_test_set = models.ForeignKey(
        "TestSet", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    published = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["path_order", "slug"]

    def __str__(self) -> str:
        return self.slug

    def get_absolute_url(self) -> str:
        return reverse("problem-detail", args=[self.slug])

    @property
    def signature(self) -> str:
        return f"{self.function_name}({', '.join(self.params)})"


class TestSet(models.Model):
    """One version of a problem's tests; its id never changes once graded against."""

    __test__ = False  # not a pytest class

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="test_sets")
    version = models.CharField(max_length=64, help_text="content hash of the package")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["problem", "version"], name="unique_test_set_version")]

    def __str__(self) -> str:
        return f"{self.problem.slug}@{self.version[:12]}"


class TestCase(models.Model):
    """Inputs (an .npz of .npy arrays, no pickle) and the expected output (.npy)."""

    __test__ = False

    test_set = models.ForeignKey(TestSet, on_delete=models.CASCADE, related_name="cases")
    index = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    hidden = models.BooleanField(default=True)
    inputs = models.BinaryField()
    expected = models.BinaryField()

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["test_set", "index"], name="unique_case_index")]


class WrongSolution(models.Model):
    """A known-wrong solution from the package, and the misconception it embodies."""

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="wrong_solutions")
    file = models.CharField(max_length=200)
    code = models.TextField()
    fails_with = models.CharField(max_length=30)
    name = models.CharField(max_length=200)
    explanation = models.TextField(blank=True)
    see = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["file"]
        constraints = [models.UniqueConstraint(fields=["problem", "file"], name="unique_wrong_file")]
