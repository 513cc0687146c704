"""Log lines that tell one submission's story: every line carries the id of the request it belongs to.

The web request takes the id from an incoming ``X-Request-ID`` when it is a sane token (a proxy's or a load
balancer's, so their lines and ours share it), or makes one (``judge.middleware.RequestIdMiddleware``).  The id
lives in a context variable for the request's life; a submission made by the request stores it
(``Submission.request_id``), and the worker binds it again while it grades that submission, whoever sent the
message (the web, a rejudge, the recovery sweep), so the worker's lines and the sandbox jobs' lines carry it
too.  Other tasks get the id of whatever sent them in a message header (``attach_to_task`` and
``adopt_from_task``, connected to Celery's signals in ``judge/celery.py``).

``RequestIdFilter`` puts the id on every record a handler emits (``-`` outside any request or task), and the
formatters print it: ``LOG_FORMAT=json`` writes one JSON object per line (python-json-logger), ``text`` a
readable line for a console (docs/operators/monitoring.md#logs).
"""

from __future__ import annotations

import contextlib
import logging
import re
import uuid
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.json import JsonFormatter

HEADER = "X-Request-ID"
TASK_HEADER = "judge_request_id"
NONE = "-"
# What an incoming id may look like: a UUID, a hex digest, nginx's $request_id, an AWS trace id.  Anything
# else (too long, spaces, quotes, control characters) is replaced: the id is printed in every line and grepped.
SANE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:=+/-]{7,127}")

_current: ContextVar[str] = ContextVar("judge_request_id", default="")


def current_request_id() -> str:
    """The id of the request or task this code runs for; "" outside any."""
    return _current.get()


def new_request_id() -> str:
    return uuid.uuid4().hex


def request_id_from(header: str | None) -> str:
    """The incoming ``X-Request-ID`` if it is sane, else a new id."""
    if header and SANE.fullmatch(header):
        return header
    return new_request_id()


@contextlib.contextmanager
def bound_request_id(request_id: str) -> Iterator[str]:
    """Every line logged inside carries ``request_id`` ("" leaves the one already bound)."""
    if not request_id:
        yield _current.get()
        return
    token = _current.set(request_id)
    try:
        yield request_id
    finally:
        _current.reset(token)


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record (a handler's filter, so records of every logger get it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = _current.get() or NONE
        return True


class RoutineTaskFilter(logging.Filter):
    """Drops Celery's "received" and "succeeded" lines for the beat's periodic tasks and the recovery sweep's
    (two lines each time would bury everything else).  Their warnings and failures still show, and the tasks log
    what they did when they do something."""

    LOGGERS = ("celery.app.trace", "celery.worker.strategy", "celery.beat")

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._names: tuple[str, ...] | None = None

    def names(self) -> tuple[str, ...]:
        if self._names is None:
            from django.conf import settings

            schedule = getattr(settings, "CELERY_BEAT_SCHEDULE", {})
            # and the sweep's task, which a worker sends itself as it starts (judge/celery.py)
            sweep = "judge.submissions.tasks.recover_stalled_submissions"
            self._names = (*schedule, *(entry["task"] for entry in schedule.values()), sweep)
        return self._names

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING or not record.name.startswith(self.LOGGERS):
            return True
        message = record.getMessage()
        return not any(name in message for name in self.names())


def json_formatter() -> logging.Formatter:
    """One JSON object per line: time, level, logger, request id, message (and the exception, when one is
    logged).  ``settings.LOGGING`` names it for LOG_FORMAT=json."""
    return JsonFormatter(
        "%(levelname)s %(name)s %(request_id)s %(message)s",
        timestamp="time",
        rename_fields={"levelname": "level", "name": "logger"},
    )


# --------------------------------------------------------------------------
# Celery: the id travels in a message header
# --------------------------------------------------------------------------


def attach_to_task(headers: dict | None = None, **kwargs: Any) -> None:
    """``before_task_publish``: a task sent while handling a request (or another task) carries its id."""
    request_id = _current.get()
    if headers is not None and request_id and TASK_HEADER not in headers:
        headers[TASK_HEADER] = request_id


_task_tokens: dict[str, Any] = {}


def adopt_from_task(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    """``task_prerun``: the task's lines carry the id its sender had (a task sent by no request gets none)."""
    request_id = getattr(getattr(task, "request", None), TASK_HEADER, None)
    if task_id is not None and isinstance(request_id, str) and SANE.fullmatch(request_id):
        _task_tokens[task_id] = _current.set(request_id)


def drop_after_task(task_id: str | None = None, **kwargs: Any) -> None:
    """``task_postrun``: the next task of this process starts without it."""
    token = _task_tokens.pop(task_id or "", None)
    if token is not None:
        _current.reset(token)
