from __future__ import annotations

from django.conf import settings
from django.db import models

from judge.problems.models import Problem


class Action(models.TextChoices):
    CREATE = "create", "Created a problem"
    EDIT = "edit", "Edited the draft"
    UPLOAD = "upload", "Uploaded a zip"
    DOWNLOAD = "download", "Downloaded a zip"
    GATE = "gate", "Ran the publish gate"
    PUBLISH = "publish", "Published (the gate passed)"
    SYNC = "sync", "Imported from problems/"
    UNPUBLISH = "unpublish", "Unpublished"
    REJUDGE = "rejudge", "Requested a rejudge"
    PROMOTE = "promote", "Named a mined misconception"
    REPORT = "report", "Answered a problem report"


class AuditEntry(models.Model):
    """Who changed what in authoring, and when."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=20, choices=Action.choices)
    problem_slug = models.CharField(max_length=80, blank=True, db_index=True)
    summary = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user} {self.action} {self.problem_slug}"


class RejudgeScope(models.TextChoices):
    SUBMISSION = "submission", "One submission"
    PROBLEM = "problem", "One problem"
    EVERYTHING = "everything", "Everything"


class RejudgeBatch(models.Model):
    """A rejudge request: which submissions go back in the queue, against their problem's current tests."""

    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    scope = models.CharField(max_length=20, choices=RejudgeScope.choices)
    problem = models.ForeignKey(Problem, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    submission_ids = models.JSONField(default=list)
    total = models.PositiveIntegerField(default=0)
    requeued = models.PositiveIntegerField(default=0)  # set by the Celery task as it goes
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    queued_all_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]


class PromotedCluster(models.Model):
    """A mined cluster of failing submissions that an author turned into a named misconception."""

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    cluster = models.CharField(max_length=20)  # ``engine.signatures.cluster_id`` of its key
    name = models.CharField(max_length=200)
    file = models.CharField(max_length=200)  # wrong/<slug of the name>.py in the draft
    students = models.PositiveIntegerField()  # in the cluster when it was promoted
    sample = models.ForeignKey("submissions.Submission", null=True, on_delete=models.SET_NULL, related_name="+")
    promoted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]


class ReportKind(models.TextChoices):
    WRONG_TEST = "wrong_test", "A test looks wrong"
    UNCLEAR = "unclear", "The statement is unclear"
    OTHER = "other", "Something else"


class ReportStatus(models.TextChoices):
    OPEN = "open", "Open"
    ANSWERED = "answered", "Answered"
    CLOSED = "closed", "Closed"


class ProblemReport(models.Model):
    """A student's or a course's staff member's report that something is wrong with a problem itself, for its
    authors (the workbench). The submission it came from is attached; its code is shown to the authors only if
    its own author chose to share it (``share_code``): see docs/instructors/grading-desk.md."""

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey(
        "submissions.Submission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=20, choices=ReportKind.choices)
    message = models.TextField(max_length=2000)
    share_code = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=ReportStatus.choices, default=ReportStatus.OPEN)
    answer = models.TextField(max_length=2000, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["problem", "status"])]

    @property
    def code_shared(self) -> bool:
        """The code is shown only when the person who wrote it chose to share it with the authors."""
        return self.share_code and self.submission is not None and self.submission.user_id == self.reporter_id
