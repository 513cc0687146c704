"""Known devices: a browser that signed in to an account before is recognised by a signed cookie.

Usernames are public, so anyone can spend an account's sign-in allowance; the cookie lets its owner's browser
keep signing in while strangers are throttled (OWASP's "device cookies").  It is a random id for the browser
and the accounts it signed in to, signed with the SECRET_KEY (``django.core.signing``), so it cannot be
forged or moved to another account.  It only changes which counter an attempt is charged to
(``judge/accounts/limits.py``); the password is checked as always.  A stolen cookie gives a thief the same
few guesses per window as anyone at one address, never the account.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing

COOKIE = "known_device"
_SALT = "judge.accounts.known-device"
MAX_ACCOUNTS = 10  # a shared lab computer remembers its last few accounts, not every one


def _read(request) -> dict | None:
    try:
        value = signing.loads(request.COOKIES.get(COOKIE, ""), salt=_SALT, max_age=settings.KNOWN_DEVICE_MAX_AGE_S)
    except signing.BadSignature:  # absent, forged, for another SECRET_KEY, or older than its max age
        return None
    valid = isinstance(value, dict) and isinstance(value.get("id"), str) and isinstance(value.get("accounts"), list)
    return value if valid else None


def device_for(request, user_pk: int | None) -> str | None:
    """This browser's id when it signed in to the account ``user_pk`` before, else None."""
    known = _read(request)
    if user_pk is None or known is None or user_pk not in known["accounts"]:
        return None
    return known["id"]


def remember_device(request, response, user) -> None:
    """After a successful sign-in: this browser is known for ``user`` (for KNOWN_DEVICE_MAX_AGE_S from now)."""
    known = _read(request) or {"id": secrets.token_urlsafe(16), "accounts": []}
    accounts = [pk for pk in known["accounts"] if pk != user.pk][-(MAX_ACCOUNTS - 1) :] + [user.pk]
    value = signing.dumps({"id": known["id"], "accounts": accounts}, salt=_SALT)
    response.set_cookie(
        COOKIE,
        value,
        max_age=settings.KNOWN_DEVICE_MAX_AGE_S,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
