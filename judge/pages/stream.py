"""The submission status stream: server-sent events that tell a page "look again".

``GET /submissions/<pk>/events/`` answers ``text/event-stream``.  Each event carries only the status
(``id`` and ``data``); the page then fetches its status fragment, so the database stays the source of
truth and an event can be lost without harm.  A reconnecting EventSource sends the last status it saw
as ``Last-Event-ID`` (the first request sends ``?shown=``), and the stream answers at once if the row has
moved on since: a dropped connection resumes by reading the database again.

Two ways to serve it:

- ``status_stream`` (ASGI, judge/asgi.py): a plain ASGI application, in front of Django's handler on
  purpose.  Django's handler runs each request's synchronous middleware on a thread kept for the
  request's whole life, so a stream would hold a thread after all; here a waiting page is an asyncio task
  and an Event of the process's one Redis connection (``push.Hub``).  The session is checked as Django's
  ``get_user`` checks it, on the shared executor, and the submission with ``get_submission_for_user``.
- ``submission_events`` (a Django view, for WSGI servers: runserver, the tests' live server): a long poll
  per request that answers each change up to the verdict (or a queue position to refresh), then the
  response ends and EventSource reconnects; it holds a thread while it waits, as the long poll does.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse, parse_cookie
from django.http.request import split_domain_port, validate_host

from judge.submissions import push
from judge.submissions.models import Status
from judge.submissions.queries import get_submission_for_user

PATH = re.compile(r"/submissions/(?P<pk>[0-9]+)/events/")
STATUSES = {choice.value for choice in Status}
# A comment now and then, so that proxies and browsers keep the connection: every 15-30 s, drawn afresh each
# time, so that a hall whose pages opened in the same minute does not wake all at once (nginx waits 60 s).
KEEPALIVE_S = 15.0
MAX_STREAM_S = 600.0  # 10-20 minutes, then the browser reconnects (and the session is checked again)
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


def event(status: str) -> bytes:
    return f"id: {status}\nevent: status\ndata: {status}\n\n".encode()


def shown_status(last_event_id: str | None, query_shown: str | None) -> str | None:
    """What the page shows: the last event it received, else what it was rendered with."""
    for candidate in (last_event_id, query_shown):
        if candidate in STATUSES:
            return candidate
    return None


def spread(seconds: float) -> float:
    """Between ``seconds`` and twice that, at random: waits that started together end apart."""
    return random.uniform(seconds, 2 * seconds)


def wait_for(shown: str | None, streams: int = 1) -> float:
    """How long to wait before saying something.  A queued page refreshes its queue position every
    PUSH_QUEUED_WAIT_S, but a process refreshes at most PUSH_POSITIONS_PER_S positions a second in all
    (each costs the page a fetch): with a hall of waiting pages, each refreshes less often."""
    if shown != Status.QUEUED:
        return spread(KEEPALIVE_S)
    return spread(max(settings.PUSH_QUEUED_WAIT_S, min(KEEPALIVE_S * 4, streams / settings.PUSH_POSITIONS_PER_S)))


open_streams = 0  # in this process (ASGI)


# --- ASGI ---------------------------------------------------------------------------------------------------


async def status_stream(scope: dict, receive, send, pk: int) -> None:
    headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
    if not _host_allowed(headers.get("host", "")):
        return await _refuse(send, 400, b"Bad Request")
    status = await sync_to_async(_authorised_status, thread_sensitive=False)(_session_key(headers), pk)
    if status is None:
        return await _refuse(send, 404, b"No such submission.")
    query = dict(part.split("=", 1) for part in scope.get("query_string", b"").decode().split("&") if "=" in part)
    shown = shown_status(headers.get("last-event-id"), query.get("shown"))
    if shown == status == Status.DONE:
        return await _refuse(send, 204, b"")  # the page has its verdict: 204 stops EventSource reconnecting
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    global open_streams
    open_streams += 1
    streaming = asyncio.ensure_future(_stream(send, pk, shown))
    disconnected = asyncio.ensure_future(_until_disconnect(receive))
    try:
        await asyncio.wait({streaming, disconnected}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        open_streams -= 1
        for task in (streaming, disconnected):
            task.cancel()
    if streaming.done() and not streaming.cancelled() and streaming.exception() is None:
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _stream(send, pk: int, shown: str | None) -> None:
    await send({"type": "http.response.body", "body": b"retry: 1000\n\n", "more_body": True})
    loop = asyncio.get_running_loop()
    ends = loop.time() + spread(MAX_STREAM_S)
    while loop.time() < ends:
        news = await push.next_event_async(pk, shown, wait_for(shown, open_streams))
        if news.gone:
            return  # deleted
        body = event(news.status) if news.news and news.status else b": still waiting\n\n"
        await send({"type": "http.response.body", "body": body, "more_body": True})
        shown = news.status
        if news.final:
            return


async def _until_disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _refuse(send, code: int, text: bytes) -> None:
    await send(
        {"type": "http.response.start", "status": code, "headers": [(b"content-type", b"text/plain; charset=utf-8")]}
    )
    await send({"type": "http.response.body", "body": text})


def _host_allowed(host: str) -> bool:
    domain, _port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS or (["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
    return bool(domain) and validate_host(domain, allowed)


def _session_key(headers: dict[str, str]) -> str | None:
    return parse_cookie(headers.get("cookie", "")).get(settings.SESSION_COOKIE_NAME)


def _authorised_status(session_key: str | None, pk: int) -> str | None:
    """The submission's status if the session's user may see it, else None (as a 404 would say)."""
    try:
        request = HttpRequest()
        request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
        user = get_user(request)  # verifies the session against the password hash, as the middleware does
        if not user.is_authenticated:
            return None
        return get_submission_for_user(user, pk).status
    except Http404:
        return None
    finally:
        push.release_database_connection()


# --- WSGI ---------------------------------------------------------------------------------------------------


@login_required
def submission_events(request, pk: int) -> HttpResponse | StreamingHttpResponse:
    submission = get_submission_for_user(request.user, pk)
    shown = shown_status(request.headers.get("Last-Event-ID"), request.GET.get("shown"))
    if shown == submission.status == Status.DONE:
        return HttpResponse(status=204)
    response = StreamingHttpResponse(_one_event(pk, shown, submission.status), content_type=HEADERS[0][1].decode())
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"
    return response


def _one_event(pk: int, shown: str | None, status: str) -> Iterator[bytes]:
    """Events until the verdict, a queue position to refresh, or a wait without change.  A running
    submission's response stays open for its verdict: ending it there cost the page EventSource's
    reconnection delay (``retry``) before the verdict, 500 ms of a 670 ms submit on ``bin/run``."""
    yield b"retry: 500\n\n"
    news = push.StatusEvent(status, shown)
    while True:
        if not news.moved and not news.final:
            news = push.next_event(pk, news.shown, wait_for(news.shown))
        if news.gone:
            return
        if news.news and news.status:
            yield event(news.status)
        if news.final or news.status == Status.QUEUED or not news.moved:
            return
        news = news.seen()
