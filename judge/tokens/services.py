"""Making, revoking and checking personal access tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from judge.tokens.models import AccessToken, Scope, TokenAction, TokenAudit

PREFIX = "npj_"  # recognisable in a leaked file or a secret scanner
MAX_TOKENS = 20  # live tokens per user
# last_used_at is written at most this often per token: not one UPDATE per API request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class TokenRejected(ValueError):
    """The token cannot be made; the message says why."""


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def create_token(user, name: str, scopes: list[str]) -> tuple[AccessToken, str]:
    """A new token and its secret, which is never stored and cannot be shown again."""
    name = name.strip()
    if not name:
        raise TokenRejected("give the token a name, such as the machine it is for")
    if len(name) > 80:
        raise TokenRejected("the name may be at most 80 characters")
    chosen = [s for s in Scope.values if s in scopes]
    unknown = sorted(set(scopes) - set(Scope.values))
    if unknown:
        raise TokenRejected(f"unknown scope {unknown[0]!r}; the scopes are {', '.join(Scope.values)}")
    if not chosen:
        raise TokenRejected("choose at least one scope")
    if live_tokens(user).count() >= MAX_TOKENS:
        raise TokenRejected(f"you have {MAX_TOKENS} tokens already; revoke one you no longer use")
    secret = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = AccessToken.objects.create(
            user=user, name=name, prefix=secret[:10], digest=digest_of(secret), scopes=chosen
        )
        audit(user, token, TokenAction.CREATED)
    return token, secret


def revoke_token(user, pk: int) -> bool:
    """Revoke one of the user's own tokens; False when they have no such live token."""
    with transaction.atomic():
        revoked = live_tokens(user).filter(pk=pk).update(revoked_at=timezone.now()) == 1
        if revoked:
            audit(user, AccessToken.objects.get(pk=pk), TokenAction.REVOKED)
    return revoked


def audit(by, token: AccessToken, action: str) -> None:
    TokenAudit.objects.create(
        user=by, token=token, action=action, summary=f"{token.name} ({token.prefix}…, {', '.join(token.scopes)})"[:300]
    )


def live_tokens(user):
    return AccessToken.objects.filter(user=user, revoked_at__isnull=True)


def authenticate_token(secret: str) -> AccessToken | None:
    """The live token with this secret, its user active, or None; notes when it was used."""
    if not secret.startswith(PREFIX) or len(secret) > 100:
        return None
    token = (
        AccessToken.objects.select_related("user")
        .filter(digest=digest_of(secret), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
