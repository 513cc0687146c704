"""A student's request that staff look again at the grade of one of their Submits on a released assignment, and
the conversation that answers it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from judge.courses.models import Assignment, Course
from judge.submissions.models import Submission


class RegradeStatus(models.TextChoices):
    OPEN = "open", "Open"  # waiting for the course's staff
    ANSWERED = "answered", "Answered"  # staff replied; the student may write again
    CLOSED = "closed", "Closed"  # resolved, with or without a change of points


class RegradeRequest(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="regrade_requests")
    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="regrade_requests")
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=RegradeStatus.choices, default=RegradeStatus.OPEN)
    # The member of staff handling it: the first to answer, or one who took it; the queue filters on it.
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        indexes = [models.Index(fields=["course", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "assignment"],
                condition=~models.Q(status="closed"),
                name="one_open_regrade_per_submission",
            )
        ]


class RegradeMessage(models.Model):
    """One message of the conversation: the student's request or follow-up, or a reply of the staff's; a
    resolution says what happened to the points (``points_change``, "" if none)."""

    request = models.ForeignKey(RegradeRequest, on_delete=models.CASCADE, related_name="messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    from_staff = models.BooleanField(default=False)
    body = models.TextField(max_length=2000)
    points_change = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
