from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from engine.custom_input import INVALID_INPUT
from engine.verdicts import Verdict
from engine.verdicts import choices as verdict_choices
from judge.problems.models import Problem, TestSet


class Status(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"


class Kind(models.TextChoices):
    SUBMIT = "submit", "Submit"  # all tests; counts
    RUN = "run", "Run"  # visible examples only; does not count
    # A spaced review's re-solve (judge/submissions/reviews.py): graded on every test like a Submit, counted for the
    # review alone, never in the standings, a course's credit, the calendar or the speed ranking.
    REVIEW = "review", "Review"


def new_draw() -> int:
    return secrets.randbits(62)


class Submission(models.Model):
    """The source of truth for one attempt, from acceptance to final verdict."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="submissions")
    test_set = models.ForeignKey(TestSet, on_delete=models.PROTECT, related_name="submissions")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SUBMIT)
    code = models.TextField()

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    verdict = models.CharField(max_length=30, choices=verdict_choices(Verdict), blank=True)
    message = models.TextField(blank=True)
    results = models.JSONField(default=list, blank=True)
    # Properties the result broke, from the problem's probes (``engine/probes.py``): name, message, explanation, see.
    properties = models.JSONField(default=list, blank=True)
    grading_ms = models.FloatField(null=True, blank=True)
    sandbox = models.JSONField(default=dict, blank=True)
    # An accepted Submit's speed against the reference (``engine.speed.SpeedReport.as_dict``), or None:
    # not measured (yet).  Only its rounded ratio is shown to the student.
    speed = models.JSONField(null=True, blank=True)
    # A Run on the student's own inputs (``engine/custom_input.py``): parameter -> the literal they typed, or None.
    custom_inputs = models.JSONField(null=True, blank=True)
    # Set by the worker for a custom Run: the reference's output (.npy), or why there is none.
    custom_expected = models.BinaryField(null=True, blank=True)
    custom_error = models.TextField(blank=True, default="")
    # Which draw of the hidden tests a Submit is graded on (``engine.pool.draw_cases``): secret, never shown,
    # and kept through a rejudge, so the same submission always meets the same inputs.
    draw = models.BigIntegerField(default=new_draw, editable=False)
    # The key the page sent with the click that made it (one per click; the API's Idempotency-Key): a retry of
    # that click, whose answer was lost, finds this submission instead of making a second one.  A key is unique
    # per student and problem, so one sent again to another problem is that problem's submission.
    client_key = models.UUIDField(null=True, blank=True, editable=False)
    # Where it came from, as fair share counts it (``fairshare.address_key``): an IPv4 address or an IPv6 /64.
    client_address = models.CharField(max_length=64, blank=True, default="")
    # The id of the web request that made it (``judge/lib/logs.py``): the worker logs its grading under the same
    # id, whoever sends it to be graded, so one grep finds the submission's whole story.
    # db_default: the column keeps its default, so code older than this field still inserts rows while it serves.
    request_id = models.CharField(max_length=128, blank=True, default="", db_default="", editable=False)

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The claim: who is grading it now, and when they last said so.
    claim = models.UUIDField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["user", "problem", "kind"]),
            # The profile's calendar counts a student's Submits per day from this index alone (no table rows).
            models.Index(fields=["user", "kind", "created_at"], name="submission_calendar"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "problem", "client_key"], name="submission_once_per_click")
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.problem.slug} {self.status} {self.verdict}"

    @property
    def is_custom(self) -> bool:
        return self.custom_inputs is not None

    @property
    def custom_outcome(self) -> str:
        """How a custom Run without an expected output ended, as its verdict reads: the input was not valid
        for the problem, or the site could not compute an answer; "" when it has one."""
        if not self.custom_error:
            return ""
        return "Invalid input" if self.custom_error.startswith(INVALID_INPUT) else "No expected output"

    @property
    def is_final(self) -> bool:
        return self.status == Status.DONE


class WorkerHeartbeat(models.Model):
    """A Celery worker's word that it is alive, written every ``WORKER_BEAT_S`` by the worker's own process
    (judge/submissions/workers.py): the site can tell a class that grading has stopped instead of showing
    "position 1" for ever, and a compose health check can ask whether its worker still beats."""

    hostname = models.CharField(max_length=255, unique=True)  # Celery's node name, as celery@host
    host = models.CharField(max_length=255)  # the machine (container) it runs on
    pid = models.PositiveIntegerField()
    lanes = models.CharField(max_length=255)  # the queues it consumes, comma-separated
    slots = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.hostname} ({self.lanes})"


class SandboxPool(models.Model):
    """One grading process's sandbox, as that process last reported it (``judge/submissions/workers.py``): its
    backend, image and NumPy, how many warm sandboxes it keeps, and how often one was replaced.  Read by
    ``/metrics`` and the staff status page; a row whose host no worker beats from any more is not shown."""

    host = models.CharField(max_length=255)  # the machine (container), as WorkerHeartbeat.host
    pid = models.PositiveIntegerField()
    backend = models.CharField(max_length=20)
    image = models.CharField(max_length=255, blank=True)
    numpy = models.CharField(max_length=40, blank=True)
    size = models.PositiveSmallIntegerField()  # warm sandboxes it keeps (Docker: containers; process: 1)
    recycled = models.PositiveIntegerField(default=0)  # replaced after a job (a limit hit, leftovers, its age)
    failures = models.PositiveIntegerField(default=0)  # thrown away whole after failing mid-job
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["host", "pid"], name="sandbox_pool_once_per_process")]

    def __str__(self) -> str:
        return f"{self.backend} sandbox of {self.host}/{self.pid}"
