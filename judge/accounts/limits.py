"""How often an address may sign up, and how often an account or an address may try to sign in.

Counted by django-ratelimit in Django's cache (Redis in production), like the limits on Run and Submit.
Those fail open when the cache is down, because the user is signed in and known; these count anonymous
requests, so they fail closed: while the counters cannot be read, sign-ups and sign-ins are refused with a
message (``CountersUnavailable``), rather than letting a password guesser through unthrottled.
"""

from __future__ import annotations

import ipaddress
import logging
import math
from dataclasses import dataclass

from django.conf import settings
from django_ratelimit.core import get_usage

log = logging.getLogger(__name__)


def client_address(request) -> str:
    """Who is asking, as far as the limits go: REMOTE_ADDR, or the address the trusted proxies saw
    (``TRUSTED_PROXY_COUNT``). An IPv6 client is its /64, which one client can hold whole."""
    address = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXY_COUNT
    if hops:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(forwarded) >= hops:
            address = forwarded[-hops]
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _wait(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    return f"{math.ceil(seconds / 60)} minutes"


def _per(period_s: int) -> str:
    if period_s % 3600 == 0:
        return "hour" if period_s == 3600 else f"{period_s // 3600} hours"
    if period_s % 60 == 0:
        return "minute" if period_s == 60 else f"{period_s // 60} minutes"
    return f"{period_s} seconds"


@dataclass(frozen=True)
class Throttled(Exception):
    what: str  # e.g. "sign-ins for this account"
    limit: int
    period_s: int
    retry_after_s: int

    def __str__(self) -> str:
        return (f"too many {self.what}: at most {self.limit} per {_per(self.period_s)}; "
                f"try again in {_wait(self.retry_after_s)}")


class CountersUnavailable(Exception):
    def __str__(self) -> str:
        return ("the site cannot count sign-up and sign-in attempts right now, so it accepts none; "
                "try again in a minute")


def _count(request, name: str, value: str, what: str, increment: bool) -> None:
    rate = settings.RATE_LIMITS.get(name)
    if not rate:
        return
    try:
        usage = get_usage(request, group=f"judge.{name}", key=lambda group, request: value, rate=rate,
                          increment=increment)
    except Exception as exc:  # the cache is down: refuse, these requests are anonymous
        log.warning("sign-in counters unavailable; refusing", exc_info=True)
        raise CountersUnavailable from exc
    if usage is None:  # django-ratelimit could not read the count (RATELIMIT_FAIL_OPEN)
        raise CountersUnavailable
    # Counting this attempt, it may be the limit-th; only checking, the next one must not go past it.
    if usage["count"] > rate[0] or (not increment and usage["count"] >= rate[0]):
        raise Throttled(what, rate[0], rate[1], max(1, usage["time_left"]))


def check_signup(request, create: bool) -> None:
    """Raise Throttled when the address has made its accounts for the hour; with ``create``, count one."""
    _count(request, "signup", client_address(request), "accounts made from your network address", create)


def check_sign_in(request, username: str) -> None:
    """Before the password is checked: count the attempt on the account, and check the address's failures."""
    _count(request, "login_address", client_address(request), "failed sign-ins from your network address", False)
    _count(request, "login_account", username.casefold(), "sign-in attempts for this account", True)


def record_failed_sign_in(request) -> None:
    try:
        _count(request, "login_address", client_address(request), "failed sign-ins from your network address", True)
    except Throttled:
        pass  # this one is already answered; the next attempt is refused
