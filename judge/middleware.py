"""Requests the site refuses before any view sees them, with a message the page shows.

``RequestBodyLimitMiddleware`` comes first: a body larger than the largest legitimate one for its URL
(``REQUEST_BODY_LIMITS``) is refused with HTTP 413 from its Content-Length, before a byte of it is read,
spooled to disk or parsed for the CSRF token; a chunked body (no Content-Length) is read only up to the limit.
Under ASGI, Django's handler reads the whole body before any middleware runs: ``BodyLimitASGI``, in front of
it (``judge/asgi.py``), lets it read none of a body declared too large and at most the limit and a byte of a
chunked one, so the same middleware answers, with the same limits and message, under both servers.

Django decodes form fields with ``errors="replace"``: bytes that are not UTF-8 (or a UTF-8-encoded lone
surrogate) would reach a view as U+FFFD and be stored silently.  Here fields are decoded with
``surrogateescape`` instead, so such bytes stay visible, and the request is refused with the same message
the file-upload path gives.
"""

from __future__ import annotations

import asyncio
import codecs
import io
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils import timezone

from judge.lib.logs import HEADER, bound_request_id, request_id_from
from judge.lib.metrics import HTTP_RESPONSES
from judge.lib.validation import SubmissionRejected, validate_code

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

request_log = logging.getLogger("judge.requests")

ESCAPED_UTF8 = "judge-utf-8-escaped"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _decode_escaped(data: ReadableBuffer, errors: str = "strict") -> tuple[str, int]:
    return codecs.utf_8_decode(data, "surrogateescape", True)  # ignores Django's errors="replace"


def _find_codec(name: str) -> codecs.CodecInfo | None:
    if name != ESCAPED_UTF8.replace("-", "_"):
        return None
    return codecs.CodecInfo(codecs.utf_8_encode, _decode_escaped, name=ESCAPED_UTF8)


codecs.register(_find_codec)


def not_utf8_message(name: str, value: str) -> str:
    """What the student reads; for the code field exactly what an uploaded file with those bytes gets."""
    raw = value.encode("utf-8", "surrogateescape")
    if name == "code":
        try:
            validate_code(raw)
        except SubmissionRejected as exc:
            return str(exc)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return f"the {name} field is not valid UTF-8 (byte 0x{raw[exc.start]:02x} on line {line})"
    return f"the {name} field is not valid UTF-8"


def _is_escaped(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def nul_message(name: str, value: str) -> str:
    """For the code field exactly what the submission service says of it."""
    if name == "code":
        try:
            validate_code(value)
        except SubmissionRejected as exc:
            return str(exc)
    return f"the {name} field contains a NUL character"


def form_problem(request: HttpRequest) -> str | None:
    """Why the posted form cannot be read, or None."""
    try:
        if request.content_type == "multipart/form-data":
            request.encoding = ESCAPED_UTF8  # the parser decodes fields with it, and keeps no raw copy
            fields = [request.GET, request.POST]
        else:  # Django decodes urlencoded bodies as UTF-8 whatever the encoding: check the body kept
            fields = [
                QueryDict(request.META.get("QUERY_STRING", "").encode("iso-8859-1"), encoding=ESCAPED_UTF8),
                QueryDict(request.body, encoding=ESCAPED_UTF8),
            ]
    except TooManyFieldsSent:
        return f"the form has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,} fields"
    return fields_problem(fields)


def fields_problem(fields: Sequence[QueryDict]) -> str | None:
    """Why one of these fields cannot be taken: bytes that are not UTF-8, or a NUL, which no text the site keeps
    may hold (PostgreSQL refuses it in any text, so it would fail a search or a save as a server error)."""
    for data in fields:
        for name, values in data.lists():
            if _is_escaped(name):
                return not_utf8_message("name of a", name)
            if "\x00" in name:
                return "the name of a field contains a NUL character"
            for value in values:
                if _is_escaped(value):
                    return not_utf8_message(name, value)
                if "\x00" in value:
                    return nul_message(name, value)
    return None


def refusal(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    if request.path_info.startswith("/api/"):  # the API answers every refusal as problem details (RFC 9457)
        body = {
            "type": "about:blank",
            "title": "Too large" if status == 413 else "Bad request",
            "status": status,
            "detail": message,
        }
        return JsonResponse(body, status=status, content_type="application/problem+json")
    if request.headers.get("HX-Request") == "true":
        # htmx swaps 2xx responses, and 413 and 429 (site.js): the message arrives where the page shows it.
        return HttpResponse(
            render_to_string("submissions/_rejected.html", {"error": message}, request),
            status=200 if status == 400 else status,
        )
    if request.headers.get("Sec-Fetch-Dest") == "empty":  # fetch(), e.g. the editor's draft autosave
        return JsonResponse({"saved": False, "error": message}, status=status)
    return HttpResponse(render_to_string("400.html", {"message": message}, request), status=status)


def url_name(path: str) -> str | None:
    try:
        return resolve(path).url_name
    except Resolver404:
        return None


def body_limit(path_info: str) -> tuple[str | None, int]:
    """The URL's name and the largest body it accepts: the one place both servers' checks take it from."""
    name = url_name(path_info)
    return name, settings.REQUEST_BODY_LIMITS.get(name or "", settings.REQUEST_BODY_DEFAULT_LIMIT)


def too_big_message(size: int | None, limit: int, name: str | None) -> str:
    what = f"{size:,} bytes" if size is not None else f"over {limit:,} bytes"
    message = f"the request is {what}; this page accepts at most {limit:,} bytes"
    if name in ("submit", "draft-save"):
        message += f" (the code may be at most {settings.MAX_CODE_BYTES:,} bytes)"
    return message


def read_chunked(stream, limit: int) -> bytes | None:
    """A body sent without a Content-Length, read up to ``limit`` bytes; None when it is longer."""
    data = bytearray()
    while len(data) <= limit:
        chunk = stream.read(min(64 * 1024, limit + 1 - len(data)))
        if not chunk:
            return bytes(data)
        data += chunk
    return None


class RequestIdMiddleware:
    """First: every line logged for this request carries its id (an incoming ``X-Request-ID`` if sane, else a
    new one; judge/lib/logs.py), which the answer sends back; then one line and one count per answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.monotonic()
        with bound_request_id(request_id_from(request.headers.get(HEADER))) as request_id:
            response = self.get_response(request)
            response[HEADER] = request_id
            HTTP_RESPONSES.labels(str(response.status_code)).inc()
            # The path quoted again: a decoded %0A would start a forged line in the text format.
            request_log.info(
                "%s %s %s %.0f ms",
                request.method,
                quote(request.path),
                response.status_code,
                (time.monotonic() - started) * 1000,
            )
        return response


class RequestBodyLimitMiddleware:
    """First of all: refuse a body over its URL's limit (HTTP 413) without reading it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        declared = request.META.get("CONTENT_LENGTH")
        chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not declared and not chunked:
            return self.get_response(request)
        name, limit = body_limit(request.path_info)
        if declared:
            if not declared.isdigit():
                return refusal(request, f"the request's Content-Length is not a number: {declared[:40]!r}")
            if int(declared) > limit:
                return refusal(request, too_big_message(int(declared), limit, name), status=413)
        else:
            # Django reads no body without a Content-Length under WSGI: read this one here, bounded, and hand it
            # on.  Under ASGI Django's handler has read what BodyLimitASGI let through, at most the limit and a byte.
            body = read_chunked(
                request.META["wsgi.input"] if "wsgi.input" in request.META else request._stream,  # noqa: SIM401  (_stream is read only without wsgi.input)
                limit,
            )
            if body is None:
                return refusal(request, too_big_message(None, limit, name), status=413)
            request.META["CONTENT_LENGTH"] = str(len(body))
            request._stream = io.BytesIO(body)  # what the request reads its body from
        return self.get_response(request)


Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]


def readable_bytes(scope: dict) -> int | None:
    """How much of this request's body Django's ASGI handler may read; None: all of it (within its limit)."""
    headers = dict(scope.get("headers", ()))
    declared = headers.get(b"content-length", b"").decode("latin-1")
    chunked = b"chunked" in headers.get(b"transfer-encoding", b"").lower()
    if not declared and not chunked:
        return None
    _, limit = body_limit(scope["path"].removeprefix(scope.get("root_path", "")))
    if declared:
        return None if declared.isdigit() and int(declared) <= limit else 0  # refused from the header
    return limit + 1  # enough for RequestBodyLimitMiddleware to see that it is over


class BoundedBody:
    """An ASGI receive that hands on at most ``allowed`` bytes of the body, then says the body ended; the answer
    then closes the connection, so the server reads no more of the body either."""

    def __init__(self, receive: Receive, send: Send, allowed: int) -> None:
        self.receive_from_client, self.send_to_client, self.left, self.cut = receive, send, allowed, False

    async def receive(self) -> Mapping[str, Any]:
        if self.cut:  # Django listens for a disconnect once it has the body: reading on would read the rest
            await asyncio.Event().wait()  # until Django, having answered, cancels this
        if self.left == 0:
            self.cut = True
            return {"type": "http.request", "body": b"", "more_body": False}
        message = await self.receive_from_client()
        body = message.get("body", b"")
        if message["type"] == "http.request" and message.get("more_body") and len(body) >= self.left:
            self.cut = True
            return {"type": "http.request", "body": body[: self.left], "more_body": False}
        self.left -= len(body)
        return message

    async def send(self, message: Mapping[str, Any]) -> None:
        if self.cut and message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), (b"connection", b"close")]}
        await self.send_to_client(message)


class BodyLimitASGI:
    """In front of Django's ASGI handler, which reads and spools a whole body before any middleware runs."""

    def __init__(self, app: Callable[[dict, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Receive, send: Send) -> None:
        allowed = readable_bytes(scope) if scope["type"] == "http" else None
        if allowed is None:
            return await self.app(scope, receive, send)
        body = BoundedBody(receive, send, allowed)
        return await self.app(scope, body.receive, body.send)


class FormInputMiddleware:
    """Before CSRF (which reads the form): refuse undecodable forms, and fields with a NUL, with a clear message."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        message = None
        if request.method == "POST" and request.content_type in FORM_TYPES:
            message = form_problem(request)
        elif "%00" in request.META.get("QUERY_STRING", ""):  # a search for a NUL, say: refused, not a 500
            message = fields_problem([request.GET])
        if message:
            return refusal(request, message)
        return self.get_response(request)


class TimeZoneMiddleware:
    """Each request starts and ends in the site's time zone (UTC).

    Course pages show a person's own zone by activating it (judge/courses/timezones.py); the activation lives
    in the thread, so without this a later request on the same thread (another person's page, a leaderboard
    window) would read dates in the zone the last course page chose.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


class MethodNotAllowedPageMiddleware:
    """A GET on an address that only takes a form's submission (``require_POST``: ``/courses/new/``,
    ``/accounts/tokens/``) answers Django's empty 405, which a browser shows as a blank page: the site's own page
    says what the address is for instead, with the same status and ``Allow`` header. The API answers its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.path.startswith("/api/"):
            return response
        page = HttpResponse(render_to_string("405.html", {"request_path": request.path}, request=request), status=405)
        page["Allow"] = response.get("Allow", "")
        return page
