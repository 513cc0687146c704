"""Personal access tokens: how the API (``judge/api``) and its clients know who is asking."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Scope(models.TextChoices):
    READ = "read", "Read problems, your submissions and progress"
    SUBMIT = "submit", "Run and submit code"


class AccessToken(models.Model):
    """One token of one user. Only a hash of the secret is stored: the secret is shown once, when made.

    The secret is 256 random bits, so a plain SHA-256 is enough (a slow hash protects guessable passwords)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=80)
    # The first characters of the secret, shown in the list so the owner can tell their tokens apart.
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} {self.name} {self.prefix}…"

    def allows(self, scope: str) -> bool:
        return scope in self.scopes


class TokenAction(models.TextChoices):
    CREATED = "created", "Created"
    REVOKED = "revoked", "Revoked"


class TokenAudit(models.Model):
    """Who made or revoked which token, and when: a token is a password for the API, so each one is on record."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    token = models.ForeignKey(AccessToken, on_delete=models.CASCADE, related_name="audit")
    action = models.CharField(max_length=10, choices=TokenAction.choices)
    summary = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
