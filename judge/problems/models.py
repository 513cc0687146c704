from __future__ import annotations

from django.conf import settings
from django.db import models

from judge.problems.rendering import states_signature


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
    # The package's editorial.md: shown to a student after their first accepted Submit, or after
    # ``editorial_after_failed`` failed Submits when the manifest allows it (``judge/problems/editorials.py``).
    editorial_md = models.TextField(blank=True, default="")
    editorial_after_failed = models.PositiveSmallIntegerField(null=True, blank=True)
    hints = models.JSONField(default=list)
    starter_code = models.TextField()
    solution_code = models.TextField()

    # Which track of the catalogue the problem belongs to (a slug such as "pixels-to-attention"; blank: none).
    track = models.CharField(max_length=60, blank=True)
    # What grading needs: ``engine.spec.ProblemSpec.as_dict()`` (function, parameters and their kinds,
    # limits, tolerances, the time budget, probes). The engine owns its fields.
    spec = models.JSONField(default=dict)

    package_hash = models.CharField(max_length=64)
    current_test_set = models.ForeignKey("TestSet", null=True, on_delete=models.SET_NULL, related_name="+")
    # A problem is a draft, invisible to students, until it passes the publish gate and is published.
    published = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    # The working copy of the package, {relative path: text}: the source of truth
    # for authoring (docs/authors/gate.md#source-of-truth-the-database).  The fields above show the
    # last version that passed the gate, or the draft while never published.
    draft_files = models.JSONField(default=dict, blank=True)
    draft_hash = models.CharField(max_length=64, blank=True)
    imported_hash = models.CharField(max_length=64, blank=True, help_text="hash last imported from problems/")
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    edited_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["path_order", "slug"]

    def __str__(self) -> str:
        return self.slug

    @property
    def function_name(self) -> str:
        return self.spec.get("function", "")

    @property
    def params(self) -> list[str]:
        return self.spec.get("params", [])

    @property
    def signature(self) -> str:
        return f"{self.function_name}({', '.join(self.params)})"

    @property
    def statement_states_signature(self) -> bool:
        """The statement opens with its own "Implement f(...)"; the page then leaves out the one it adds."""
        return states_signature(self.statement_md, self.function_name)


class TestSet(models.Model):
    """One version of a problem's tests; its id never changes once graded against."""

    __test__ = False  # not a pytest class

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="test_sets")
    version = models.CharField(max_length=64, help_text="content hash of the package")
    created_at = models.DateTimeField(auto_now_add=True)
    # The package's files of this version: what Publish compares the next draft with ({} for a version
    # stored before they were kept).
    files = models.JSONField(default=dict, blank=True)
    # The submission's time budget the last passing gate run of this version settled on; Publish uses it.
    budget_s = models.FloatField(null=True, blank=True)

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
    # An input built for a probe (``engine/probes.py``): run with the tests, never graded on its own.
    probe = models.BooleanField(default=False)
    # 0: the published seed's case; 1, 2, ...: a hidden case drawn with a secret seed (``engine/pool.py``),
    # of which each Submit is graded on one draw.
    variant = models.PositiveSmallIntegerField(default=0)
    inputs = models.BinaryField()
    expected = models.BinaryField()
    # A finite-difference estimate of the answer (.npy), for the backward problems' marked tests.
    fd_expected = models.BinaryField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["test_set", "index"], name="unique_case_index")]


class BenchmarkCase(models.Model):
    """One secret draw of a problem's benchmark case (``engine/speed.py``): an accepted Submit's speed is
    measured on these, one draw per repeat, and each result checked against ``expected``."""

    test_set = models.ForeignKey(TestSet, on_delete=models.CASCADE, related_name="benchmark")
    index = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    variant = models.PositiveSmallIntegerField()
    inputs = models.BinaryField()
    expected = models.BinaryField()

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["test_set", "index"], name="unique_benchmark_index")]


class KnownWrongOutcome(models.Model):
    """What one known-wrong solution did on one test case, computed in a sandbox by the gate.

    Students' failing results are compared with these to name their misconception;
    the output itself never leaves the worker.
    """

    case = models.ForeignKey(TestCase, on_delete=models.CASCADE, related_name="known_wrong")
    position = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=200)
    explanation = models.TextField(blank=True)
    see = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=30)
    output = models.BinaryField(null=True)
    signature = models.TextField(blank=True)

    class Meta:
        ordering = ["position"]


class GateStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"


STALLED_AFTER_S = 600


class GateRun(models.Model):
    """One run of the publish gate on a version of a problem's package, check by check."""

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="gate_runs")
    package_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=GateStatus.choices, default=GateStatus.QUEUED)
    passed = models.BooleanField(null=True)
    checks = models.JSONField(default=list, blank=True)  # [{"key", "title", "passed", "detail"}]
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    trigger = models.CharField(max_length=20, default="manual")  # manual | sync | command
    # The tests in the order the gate ran them, [{"name", "hidden"}]: the order a Submit runs them in.
    test_order = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"gate #{self.pk} {self.problem.slug} {self.status} {self.passed}"

    @property
    def stalled(self) -> bool:
        """Not finished long after it was requested: its worker died or the queue lost it."""
        from django.utils import timezone

        return self.status != GateStatus.DONE and (timezone.now() - self.created_at).total_seconds() > STALLED_AFTER_S


class SyncRun(models.Model):
    """One run of ``sync_problems``: the problems it set out to list, so that the problem list can count
    those still being prepared from its first second, before any of them is imported."""

    started_at = models.DateTimeField(auto_now_add=True)
    # Renewed as each gate ends: a sync killed midway stops being counted STALLED_AFTER_S later.
    heartbeat_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Slugs of packages not listed when it started that it may still list (narrowed once they are imported).
    waiting = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        return f"sync #{self.pk} {len(self.waiting)} waiting{' (finished)' if self.finished_at else ''}"


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
