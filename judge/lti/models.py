"""LTI 1.3: the platforms (LMSs) registered here, the tool's own keys, and how their people, contexts and links
map onto this site's users, courses and assignments; plus the state of each score sent back.

A platform's user is matched by (platform, ``sub``) only: never by a name or an email, which an LMS lets people
change and which two platforms may share.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from judge.courses.models import Assignment, Course
from judge.problems.models import Problem


def issuer_spellings(issuer: str) -> list[str]:
    """An issuer with and without a trailing slash: both name one platform (Moodle's Platform ID is typed by
    hand, "https://moodle.example.edu" or ".../"), so a registration matches a launch's ``iss`` either way."""
    bare = issuer.rstrip("/")
    return [bare, bare + "/"]


class Platform(models.Model):
    """One registration of this tool in an LMS: what the LMS administrator copied from it."""

    name = models.CharField(max_length=120)
    issuer = models.URLField(
        max_length=300, help_text="The platform's issuer (iss), e.g. https://canvas.instructure.com"
    )
    client_id = models.CharField(max_length=200, help_text="The client id the LMS gave this tool")
    deployment_ids = models.JSONField(
        default=list, blank=True, help_text="The deployment ids this tool accepts launches from"
    )
    key_set_url = models.URLField(max_length=500, help_text="The platform's public key set (JWKS) URL")
    auth_login_url = models.URLField(max_length=500, help_text="The platform's OIDC authorization endpoint")
    auth_token_url = models.URLField(max_length=500, help_text="The platform's OAuth2 access token endpoint")
    auth_audience = models.CharField(
        max_length=500, blank=True, help_text="The token endpoint's audience when it is not its URL (Moodle: blank)"
    )
    enabled = models.BooleanField(default=True, help_text="Off: every launch from this platform is refused")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [models.UniqueConstraint(fields=["issuer", "client_id"], name="platform_once_per_client")]

    def __str__(self) -> str:
        return self.name


class ToolKey(models.Model):
    """The tool's RSA key pair. A new key is published in /lti/jwks/ first and signs only once activated, so
    platforms that cache our key set have seen it before the first message signed with it arrives."""

    kid = models.CharField(max_length=100, unique=True)
    private_pem = models.TextField()
    public_pem = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    activated_at = models.DateTimeField(null=True, blank=True)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.kid


class LtiUser(models.Model):
    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="users")
    sub = models.CharField(max_length=255)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_identities")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "sub"], name="lti_user_once_per_platform")]


class LtiContext(models.Model):
    """An LMS course (context) and the course of ours it is linked to, with its service endpoints."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="contexts")
    deployment_id = models.CharField(max_length=255)
    context_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="lti_contexts")
    memberships_url = models.URLField(max_length=500, blank=True)
    lineitems_url = models.URLField(max_length=500, blank=True)
    ags_scopes = models.JSONField(default=list, blank=True)
    roster_synced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "context_id"], name="lti_context_once")]

    def __str__(self) -> str:
        return self.title or self.context_id


class LtiLink(models.Model):
    """A resource link placed in the LMS: one assignment (or one problem) of ours, and its line item there."""

    context = models.ForeignKey(LtiContext, on_delete=models.CASCADE, related_name="links")
    resource_link_id = models.CharField(max_length=255)
    assignment = models.ForeignKey(Assignment, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    problem = models.ForeignKey(Problem, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    lineitem_url = models.URLField(max_length=500, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["context", "resource_link_id"], name="lti_link_once")]


class UsedNonce(models.Model):
    """Each id_token's nonce is accepted once: a second launch with the same one is a replay."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="+")
    nonce = models.CharField(max_length=255)
    used_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "nonce"], name="nonce_used_once")]


class ScoreStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
    HELD = "held", "Held until the assignment's grades are released"


class ScorePost(models.Model):
    """The score of one student on one line item: what was last computed, sent, and what went wrong.

    One row per (link, student). A change of credit marks it PENDING and sends a task; the task, holding the
    row's lock, reads the credit afresh and posts it with the time it read it, so whichever task runs last
    posts the newest credit with the newest timestamp: nothing is lost and nothing older arrives later."""

    link = models.ForeignKey(LtiLink, on_delete=models.CASCADE, related_name="scores")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=ScoreStatus.choices, default=ScoreStatus.PENDING)
    score_given = models.FloatField(null=True, blank=True)
    score_maximum = models.FloatField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=1000, blank=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["link", "user"], name="score_once_per_link_and_user")]
        indexes = [models.Index(fields=["status"])]


class SetupAudit(models.Model):
    """Who changed how this site trusts LMSs, and when: platforms registered, changed or removed, and the tool's
    keys made, activated, retired or removed; from the LTI pages, the admin, or the site itself (no user)."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    summary = models.CharField(max_length=1000, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
