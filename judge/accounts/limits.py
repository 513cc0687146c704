"""How often an address may sign up, and how often an account or an address may try to sign in.

Sign-in attempts are counted on the account Django's login will find, however its name is typed
(``account_key``), before the password is checked: per account and address, per account from anywhere
(slower), or, for a browser that signed in to the account before, per browser and account instead
(``judge/accounts/devices.py``); failures per address count the accounts that failed there, not the
attempts, so a lab behind one address is not locked out by its own typing.  The rates and why they are what
they are: ``RATE_LIMITS`` in settings.

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
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django_ratelimit.core import get_usage

from judge.accounts.devices import device_for

log = logging.getLogger(__name__)


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or the address the trusted proxies saw (``TRUSTED_PROXY_COUNT``)."""
    address = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXY_COUNT
    if hops:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(forwarded) >= hops:
            address = forwarded[-hops]
    return address


def client_address(request) -> str:
    """Who is asking, as far as the limits go: ``client_ip``, an IPv6 client as its /64, which one client can
    hold whole."""
    address = client_ip(request)
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
        return (
            f"too many {self.what}: at most {self.limit} per {_per(self.period_s)}; "
            f"try again in {_wait(self.retry_after_s)}"
        )


class CountersUnavailable(Exception):
    def __str__(self) -> str:
        return "the site cannot count sign-up and sign-in attempts right now, so it accepts none; try again in a minute"


def _usage(request, group: str, value: str, rate: tuple[int, int], increment: bool) -> dict:
    try:
        usage = get_usage(
            request, group=f"judge.{group}", key=lambda group, request: value, rate=rate, increment=increment
        )
    except Exception as exc:  # the cache is down: refuse, these requests are anonymous
        log.warning("sign-in counters unavailable; refusing", exc_info=True)
        raise CountersUnavailable from exc
    if usage is None:  # django-ratelimit could not read the count (RATELIMIT_FAIL_OPEN)
        raise CountersUnavailable
    return usage


def _count(request, name: str, value: str, what: str, increment: bool, group: str = "") -> None:
    rate = settings.RATE_LIMITS.get(name)
    if not rate:
        return
    usage = _usage(request, group or name, value, rate, increment)
    # Counting this attempt, it may be the limit-th; only checking, the next one must not go past it.
    if usage["count"] > rate[0] or (not increment and usage["count"] >= rate[0]):
        raise Throttled(what, rate[0], rate[1], max(1, usage["time_left"]))


def check_signup(request, create: bool) -> None:
    """Raise Throttled when the address has made its accounts for the hour; with ``create``, count one."""
    _count(request, "signup", client_address(request), "accounts made from your network address", create)


def check_course_signup(request, course_pk: int) -> None:
    """Count an account made through a course's join link: not the address's limit, the course's (a leaked
    code cannot make accounts without end)."""
    _count(request, "signup_course", str(course_pk), "accounts made through this course's join link", True)


FAILING_HERE = "accounts failing to sign in from your network address"


@dataclass(frozen=True)
class Attempt:
    """A sign-in attempt as the limits count it."""

    address: str  # client_address()
    account: str  # account_key(): the account the login will look up, however its name was typed
    device: str | None  # this browser's id, when it signed in to that account before (judge/accounts/devices.py)


def account_key(username: str) -> tuple[str, int | None]:
    """The account a sign-in is for, found as Django's login finds it, and its primary key (None: no account).

    AuthenticationForm's UsernameField strips the name and NFKC-normalises it ("ａｄａ " is "ada"), then the
    backend looks it up with ``get_by_natural_key``; here the same field and the same call.  A name that is no
    account is keyed on that normalised form, casefolded, so spelling it another way gains nothing either."""
    name = AuthenticationForm().fields["username"].to_python(username) or ""
    users = get_user_model()._default_manager
    try:
        pk = users.get_by_natural_key(name).pk
    except users.model.DoesNotExist:
        return f"name:{name.casefold()}", None
    return f"user:{pk}", pk


def check_sign_in(request, username: str) -> Attempt:
    """Before the password is checked: count the attempt on the account, and check the address's failures.

    A browser that signed in to this account before is counted on its own (per browser and account), so
    strangers spending the account's allowance do not lock its owner out; any other attempt is counted per
    account and address, and per account from anywhere (the slower backstop against guesses from many
    addresses)."""
    account, pk = account_key(username)
    attempt = Attempt(client_address(request), account, device_for(request, pk))
    if not _failed_here_before(request, attempt):  # an account already counted at the address is not again
        _count(request, "login_address", attempt.address, FAILING_HERE, False)
    if attempt.device:
        _count(
            request,
            "login_account_address",
            f"{attempt.device} {account}",
            "sign-in attempts for this account from this browser",
            True,
            group="login_device",
        )
        return attempt
    _count(
        request,
        "login_account_address",
        f"{account} {attempt.address}",
        "sign-in attempts for this account from your network address",
        True,
    )
    _count(request, "login_account", account, "sign-in attempts for this account", True)
    return attempt


def _failed_pair(request, attempt: Attempt, increment: bool) -> int:
    rate = settings.RATE_LIMITS.get("login_address")
    if not rate:
        return 0
    return _usage(request, "login_failed_pair", f"{attempt.account} {attempt.address}", (1, rate[1]), increment)[
        "count"
    ]


def _failed_here_before(request, attempt: Attempt) -> bool:
    return _failed_pair(request, attempt, increment=False) > 0


def record_failed_sign_in(request, attempt: Attempt) -> None:
    """A wrong password: the address has failed on one more account, unless it failed on this one already."""
    if _failed_pair(request, attempt, increment=True) != 1:
        return
    try:
        _count(request, "login_address", attempt.address, FAILING_HERE, True)
    except Throttled:
        pass  # this one is already answered; the next attempt is refused
