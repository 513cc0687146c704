"""Telling a waiting page that a submission's status changed, as soon as it does.

The worker publishes on a Redis channel per submission when it claims one and
when it records the verdict; the status view (a long poll) waits on that
channel and answers the moment something arrives.  Without Redis (the
embedded default, a file-system broker) the view re-reads the row every
``PUSH_DB_POLL_S`` seconds instead: the database stays the source of truth
either way, and a message only says "look again".

``StatusEvent`` is what a waiting page or client is told, from ``next_event`` (or ``next_event_async``):
the long poll, the page's event stream under ASGI and under WSGI, and the API's stream all wait through it
and only put what it says in their own form.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from judge.submissions.models import Status, Submission

log = logging.getLogger(__name__)
_client = None


def redis_client():
    """The site's Redis (``REDIS_URL``), or None on the embedded default."""
    global _client
    if not settings.REDIS_URL:
        return None
    if _client is None:
        import redis

        _client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
    return _client


def channel(submission_id: int | str) -> str:
    # Pub/sub ignores Redis's database number: the database name keeps two sites (or test runs) apart.
    return f"judge:{connection.settings_dict['NAME']}:submission:{submission_id}"


def every_channel() -> str:
    """The pattern of every submission's channel, for a page that watches many (a course's live matrix)."""
    return channel("*")


def publish_status(submission_id: int, status: str) -> None:
    client = redis_client()
    if client is None:
        return
    try:
        client.publish(channel(submission_id), status)
    except Exception:  # the page falls back on its next poll
        log.warning("could not publish the status of submission %s", submission_id, exc_info=True)


@dataclass(frozen=True)
class StatusEvent:
    """A submission's status now (None: it is gone), against the status the waiting side shows."""

    status: str | None
    shown: str | None

    @property
    def gone(self) -> bool:
        return self.status is None

    @property
    def moved(self) -> bool:
        return self.status != self.shown

    @property
    def final(self) -> bool:
        return self.status == Status.DONE

    @property
    def news(self) -> bool:
        """Worth telling a page: the status moved, or it is still queued (its queue position may have moved)."""
        return self.moved or self.status == Status.QUEUED

    def seen(self) -> StatusEvent:
        """The next wait's starting point: the page now shows this status."""
        return StatusEvent(self.status, self.status)


def next_event(submission_id: int, shown: str | None, timeout: float) -> StatusEvent:
    """The status once it differs from ``shown``, or as it is after ``timeout`` seconds (0: at once)."""
    return StatusEvent(wait_for_change(submission_id, shown, timeout), shown)


async def next_event_async(submission_id: int, shown: str | None, timeout: float) -> StatusEvent:
    """``next_event`` for a stream under ASGI: an asyncio task on the process's hub, not a thread."""
    return StatusEvent(await next_status(submission_id, shown, timeout), shown)


def current_status(submission_id: int) -> str | None:
    return Submission.objects.filter(pk=submission_id).values_list("status", flat=True).first()


def wait_for_change(submission_id: int, shown: str | None, timeout: float) -> str | None:
    """Return the submission's status once it differs from ``shown``, or after ``timeout`` seconds."""
    status = current_status(submission_id)
    if status != shown or timeout <= 0:
        return status
    client = redis_client()
    if client is not None:
        try:
            return _wait_on_redis(client, submission_id, shown, timeout)
        except Exception:
            log.warning("Redis pub/sub failed; polling the database instead", exc_info=True)
    return _wait_on_database(submission_id, shown, timeout)


def _wait_on_redis(client, submission_id: int, shown: str | None, timeout: float) -> str | None:
    deadline = time.monotonic() + timeout
    with client.pubsub(ignore_subscribe_messages=True) as pubsub:
        pubsub.subscribe(channel(submission_id))
        status = current_status(submission_id)  # it may have changed before the subscription started
        release_database_connection()
        while status == shown and (left := deadline - time.monotonic()) > 0:
            if pubsub.get_message(timeout=left) is not None:
                status = current_status(submission_id)
        return status


def release_database_connection() -> None:
    """A request parked on Redis should not hold one of PostgreSQL's connections; the next query reopens one."""
    if not connection.in_atomic_block:
        connection.close()


def _wait_on_database(submission_id: int, shown: str | None, timeout: float) -> str | None:
    deadline = time.monotonic() + timeout
    status = shown
    while status == shown and time.monotonic() < deadline:
        time.sleep(settings.PUSH_DB_POLL_S)
        status = current_status(submission_id)
    return status


# --- The asynchronous side: status streams under ASGI (judge/pages/stream.py) -------------------------------
#
# Under ASGI a waiting page costs an asyncio task, not a thread.  Each web process opens ONE Redis pub/sub
# connection (the hub), subscribed to the pattern of every submission's channel, and keeps one ``Watch`` per
# submission that has streams open in it: the status it last read.  A message marks that watch stale and wakes
# its streams; the first of them to look reads the row again, and that one read serves every stream of the
# submission in the process.  A stream whose wait ends without a message (a keep-alive) reads nothing: while the
# hub is connected, no message means no change, because every change of status is published after it commits.
# Without Redis, or while the hub is reconnecting, the watches are read every PUSH_DB_POLL_S instead.

RECONNECT_S = 1.0


def channel_pattern() -> str:
    name = str(connection.settings_dict["NAME"])
    escaped = "".join("\\" + c if c in "*?[]\\" else c for c in name)  # glob characters in a database name
    return f"judge:{escaped}:submission:*"


def hub_name() -> str:
    return "judge-push-hub:" + "".join(
        c if c.isalnum() or c in "_-." else "_" for c in str(connection.settings_dict["NAME"])
    )


class Watch:
    """One submission's status as this process last read it, shared by every stream waiting on it.

    ``changed`` is set (and replaced) when a message says the row may have changed: a stream takes it before
    it looks at the status, so a message that arrives while it looks still wakes it.  A read that a message
    overtook is not kept: the status stays stale and the next look reads again."""

    def __init__(self, submission_id: int) -> None:
        self.submission_id = submission_id
        self.streams = 0
        self.status: str | None = None
        self.fresh = False
        self.read_at = 0.0
        self.version = 0
        self.changed = asyncio.Event()
        self.reading: asyncio.Future | None = None

    def invalidate(self) -> None:
        self.fresh = False
        self.version += 1
        self.reading = None  # a read already under way may have missed the change: the next look starts another
        self.changed.set()
        self.changed = asyncio.Event()

    def known(self, connected: bool) -> bool:
        """True if the status may be used without reading: the hub is connected and nothing came since the
        read (a change would have been published), or, without the hub, the read is under PUSH_DB_POLL_S old."""
        if not self.fresh:
            return False
        return connected or asyncio.get_running_loop().time() - self.read_at < settings.PUSH_DB_POLL_S

    async def current(self, connected: bool) -> str | None:
        if self.known(connected):
            return self.status
        if self.reading is None:
            self.reading = asyncio.ensure_future(self._read())
        # Shielded: a stream whose page went away must not cancel the read its neighbours wait on.
        return await asyncio.shield(self.reading)

    async def _read(self) -> str | None:
        version = self.version
        try:
            status = await read_status(self.submission_id)
        finally:
            if self.reading is asyncio.current_task():  # else a message overtook it, or the next read began
                self.reading = None
        if version == self.version:
            self.status, self.fresh, self.read_at = status, True, asyncio.get_running_loop().time()
        return status


class Hub:
    """One process's Redis pub/sub connection, fanned out to every stream waiting in it."""

    def __init__(self, url: str, pattern: str, name: str) -> None:
        self.url, self.pattern, self.name = url, pattern, name  # the name: CLIENT LIST shows the connection
        self.connected = False
        self.watches: dict[int, Watch] = {}
        self.task: asyncio.Task | None = None

    def watch(self, submission_id: int) -> Watch:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.listen(), name="judge-push-hub")
        watch = self.watches.get(submission_id) or self.watches.setdefault(submission_id, Watch(submission_id))
        watch.streams += 1
        return watch

    def forget(self, watch: Watch) -> None:
        watch.streams -= 1
        if watch.streams <= 0 and self.watches.get(watch.submission_id) is watch:
            del self.watches[watch.submission_id]

    def wake(self, submission_id: int | None = None) -> None:
        """Mark one submission's watch stale, or every watch (the connection changed: anything may have)."""
        if submission_id is None:
            watches = list(self.watches.values())
        else:
            watches = [w for w in [self.watches.get(submission_id)] if w is not None]
        for watch in watches:
            watch.invalidate()

    async def listen(self) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(self.url, socket_connect_timeout=2, client_name=self.name)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.psubscribe(self.pattern)
                    self.connected = True
                    self.wake()  # a message may have been missed while reconnecting
                    async for message in pubsub.listen():
                        self.deliver(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the push hub lost Redis; streams poll the database until it is back", exc_info=True)
            finally:
                self.connected = False
                self.wake()
                await client.aclose()
            await asyncio.sleep(RECONNECT_S)

    def deliver(self, message: dict) -> None:
        if message.get("type") != "pmessage":
            return
        name = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
        try:
            self.wake(int(name.rsplit(":", 1)[1]))
        except ValueError:
            pass


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub | None:
    """This event loop's hub (one per web process under uvicorn), or None without Redis."""
    if not settings.REDIS_URL:
        return None
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        for stale in [other for other in _hubs if other.is_closed()]:
            del _hubs[stale]
        _hubs[loop] = Hub(settings.REDIS_URL, channel_pattern(), hub_name())
    return _hubs[loop]


def _read_status(submission_id: int) -> str | None:
    try:
        return current_status(submission_id)
    finally:
        release_database_connection()  # back to the pool (production), or closed


async def read_status(submission_id: int) -> str | None:
    # Not thread-sensitive: a short query on the loop's small shared pool, never a thread per stream.
    return await sync_to_async(_read_status, thread_sensitive=False)(submission_id)


async def next_status(submission_id: int, shown: str | None, timeout: float) -> str | None:
    """The status once it differs from ``shown``, or the status after ``timeout`` seconds (async)."""
    the_hub = hub()
    if the_hub is None:
        return await _poll_status(submission_id, shown, timeout)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    watch = the_hub.watch(submission_id)
    try:
        while True:
            changed = watch.changed  # before looking: a message that comes meanwhile still wakes this stream
            status = await watch.current(the_hub.connected)
            left = deadline - loop.time()
            if status != shown or left <= 0:
                return status
            try:
                await asyncio.wait_for(
                    changed.wait(), left if the_hub.connected else min(left, settings.PUSH_DB_POLL_S)
                )
            except TimeoutError:
                pass
    finally:
        the_hub.forget(watch)


async def _poll_status(submission_id: int, shown: str | None, timeout: float) -> str | None:
    """Without Redis: the row every PUSH_DB_POLL_S, as the synchronous side does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status = await read_status(submission_id)
        left = deadline - loop.time()
        if status != shown or left <= 0:
            return status
        await asyncio.sleep(min(left, settings.PUSH_DB_POLL_S))
