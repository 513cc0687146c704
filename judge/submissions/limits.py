"""How often one student may Run and Submit: a per-user rate limit, counted in the cache.

The counters live in Django's cache: Redis in production (shared by every web
process), process memory on the embedded default (one web process).  The
windows and the counting are django-ratelimit's.  Staff rejudges never pass
through here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django_ratelimit.core import get_usage

from judge.submissions.models import Kind

log = logging.getLogger(__name__)

PERIOD_NAMES = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}
ACTIONS: dict[str, tuple[str, str]] = {Kind.RUN: ("runs", "run the examples"), Kind.SUBMIT: ("submissions", "submit")}
COUNTED_AS: dict[str, str] = {Kind.REVIEW: Kind.SUBMIT}  # a review's Submit costs the grader as much as any other


@dataclass(frozen=True)
class RateLimited(Exception):
    kind: str
    limit: int
    period_s: int
    retry_after_s: int

    def __str__(self) -> str:
        things, action = ACTIONS[self.kind]
        period = PERIOD_NAMES.get(self.period_s, f"{self.period_s} seconds")
        wait = self.retry_after_s
        return (
            f"you have used all {self.limit} {things} allowed per {period}; "
            f"you can {action} again in {wait} second{'s' if wait != 1 else ''}"
        )


def _user_key(group: str, request) -> str:
    return str(request.user.pk)


def check_rate_limit(request, kind: str) -> None:
    """Count this attempt; raise RateLimited when the user is over ``RATE_LIMITS[kind]``."""
    kind = COUNTED_AS.get(kind, kind)
    rate = settings.RATE_LIMITS.get(kind)  # (count, seconds), or None: unlimited
    if not rate:
        return
    try:
        usage = get_usage(request, group=f"judge.{kind}", key=_user_key, rate=rate, increment=True)
    except Exception:  # the cache is down: let the student through rather than block the class
        log.warning("rate-limit counters unavailable; not limiting", exc_info=True)
        return
    if usage and usage["should_limit"]:
        limit, period = rate
        raise RateLimited(kind, limit, period, max(1, usage["time_left"]))
