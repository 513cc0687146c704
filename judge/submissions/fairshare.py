"""Fair share: who has used the grading workers lately, and the message priority that follows.

Celery does the scheduling (``broker``): on Redis a worker takes the message with
the lowest priority number from any of its queues, and among equal numbers its
queues in order.  This module only chooses the number, once, as a submission is
sent (again when a parked one is released), from its student's *standing*, in
worker seconds:

- the seconds their account held a worker, halving every ``FAIR_SHARE_HALF_LIFE_S``;
- plus their share of what their client address used: the address's seconds
  divided by the accounts seen there within two half-lives;
- where each of their submissions not yet graded counts ``QUEUED_COST_S`` more, so a
  flood is charged as it is queued, not only once it has run.

Why the address, and why shared: one person with ten fresh accounts at one address
gets no fresh share with each (every account carries a tenth of the address's
seconds and of its queued flood, on top of its own); a lab behind one NAT address
is one address with thirty accounts, so one student's loops cost each classmate a
thirtieth, while the looping account carries them in full.  An IPv6 client counts
by its /64, which one home receives whole.

The database stays the source of truth: a lost count only changes an order, never
whether a submission is graded.  Without Redis (the embedded default, whose
file-system broker has no priorities) nothing is counted and the order stays FIFO.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time

from django.conf import settings

from judge.submissions.push import redis_client

log = logging.getLogger(__name__)

# Message priorities (Redis: 0 is taken first; kombu's ``priority_steps`` in settings keep all ten apart).
URGENT = 0  # the recovery sweep, and a submission whose worker died: ahead of everyone
FIRST_BAND, LAST_BAND = 1, 8  # fair share: a standing under BAND_UNIT_S is band 1, each doubling one more
LAST = 9  # staff rejudges: only what nobody else is waiting for
# A student submitting every 10 s, with two or three loops in the last minute, stays under this: a class
# shares band 1 and keeps arrival order (finer bands made a student with two loops wait 50 s at peak).
BAND_UNIT_S = 16.0
# A submission not yet graded, as if it were a loop of two typical time limits: an account's third queued
# submission leaves band 1, and so does a flood spread over ten accounts (test_fair_share.py).
QUEUED_COST_S = 4.0

_CHARGE = """
local now, seconds, half_life = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for _, key in ipairs(KEYS) do
    local stored = redis.call('HMGET', key, 'used', 'at')
    local used = tonumber(stored[1]) or 0
    local at = tonumber(stored[2]) or now
    used = used * math.pow(2, -math.max(0, now - at) / half_life) + seconds
    redis.call('HSET', key, 'used', tostring(used), 'at', tostring(now))
    redis.call('EXPIRE', key, math.ceil(half_life * 20))
end
"""


def address_key(address: str | None) -> str:
    """What the address is counted as: an IPv4 address, an IPv6 /64, or "" (unknown); takes an address or
    the /64 that ``accounts.limits.client_address`` gives."""
    try:
        ip = ipaddress.ip_address((address or "").strip().split("/")[0])
    except ValueError:
        return ""
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


def band(standing_s: float) -> int:
    """The message priority for a standing: band 1 under ``BAND_UNIT_S``, one more per doubling, at most 8."""
    doublings = math.floor(math.log2(1 + max(0.0, standing_s) / BAND_UNIT_S))
    return min(LAST_BAND, FIRST_BAND + doublings)


def _keys(user_id: int, address: str) -> tuple[str, str, str]:
    return f"judge:fair:account:{user_id}", f"judge:fair:address:{address}", f"judge:fair:accounts-at:{address}"


def _decayed(stored: list, now: float) -> float:
    used, at = stored
    if used is None:
        return 0.0
    return float(used) * 2 ** (-max(0.0, now - float(at)) / settings.FAIR_SHARE_HALF_LIFE_S)


def standing(user_id: int, address: str, unfinished: int = 0, unfinished_at_address: int = 0) -> float | None:
    """The student's standing in worker seconds (module docstring), or None without Redis.

    ``unfinished``: the account's other submissions not yet graded; ``unfinished_at_address``:
    those of every account at the address.  Notes the account as seen at the address."""
    client = redis_client()
    if client is None:
        return None
    now = time.time()
    account_key, address_key_, accounts_key = _keys(user_id, address)
    half_life = settings.FAIR_SHARE_HALF_LIFE_S
    with client.pipeline() as pipe:
        pipe.hmget(account_key, "used", "at")
        if address:
            pipe.hmget(address_key_, "used", "at")
            pipe.zadd(accounts_key, {str(user_id): now})
            pipe.zremrangebyscore(accounts_key, "-inf", now - 2 * half_life)
            pipe.zcard(accounts_key)
            pipe.expire(accounts_key, math.ceil(2 * half_life))
        replies = pipe.execute()
    own = _decayed(replies[0], now) + QUEUED_COST_S * unfinished
    if not address:
        return 2 * own  # counted as an address of its own, like a student at home
    shared = _decayed(replies[1], now) + QUEUED_COST_S * unfinished_at_address
    return own + shared / max(1, replies[4])


def priority(user_id: int, address: str, unfinished: int = 0, unfinished_at_address: int = 0) -> int | None:
    """The message priority for the student's next submission: None without Redis (FIFO); if Redis
    cannot answer, band 1 for everyone (FIFO among students, as before fair share)."""
    try:
        value = standing(user_id, address, unfinished, unfinished_at_address)
    except Exception:  # an order is not worth a lost submission
        log.warning("fair-share counters unavailable; sending in arrival order", exc_info=True)
        return FIRST_BAND
    return None if value is None else band(value)


def charge(user_id: int, address: str, seconds: float) -> None:
    """Add the worker seconds a submission held to its account and its address."""
    client = redis_client()
    if client is None or seconds <= 0:
        return
    account_key, address_key_, _ = _keys(user_id, address)
    keys = [account_key, address_key_] if address else [account_key]
    try:
        client.eval(_CHARGE, len(keys), *keys, time.time(), seconds, settings.FAIR_SHARE_HALF_LIFE_S)
    except Exception:
        log.warning("could not charge %.2f s to user %s", seconds, user_id, exc_info=True)
