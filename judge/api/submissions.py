"""Submissions: create (Run, Submit, Run on your own inputs), one as its page shows it, yours, and a live stream.

Creating goes through the pages' own path, ``intake.take_submission``: the same rate limits, the same
refusals of locked problems and bad code, the same click key for a retried request (``Idempotency-Key``).
What a submission shows is the page's: ``results.result_rows`` (a hidden test names its failed check in the
fixed vocabulary, nothing more), the named misconceptions and broken properties."""

from __future__ import annotations

import json
import time
import uuid
from typing import Literal

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, StreamingHttpResponse
from django.urls import reverse
from ninja import Field, Query, Router, Schema
from ninja import Status as Answer
from ninja.errors import HttpError
from pydantic import ConfigDict

from judge.accounts.limits import client_address
from judge.api.auth import READ, SUBMIT
from judge.api.errors import REFUSALS, ProblemDetails
from judge.api.problems import Slug, get_published
from judge.courses.release import Hold, held_submission_ids, hold_on
from judge.display import results
from judge.display.templatetags.misconceptions import misconceptions_of, properties_of
from judge.submissions import push, speed
from judge.submissions.models import Status, Submission
from judge.submissions.services.intake import queue_position, take_submission

router = Router(tags=["submissions"])

EXAMPLE_KEY = "5b1d1d7e-8f4c-4c3e-9a57-0c8f7d6e5a41"  # what a refusal shows a client of a valid Idempotency-Key
# The longest a stream stays open; a client that still has no verdict opens another.
STREAM_MAX_S = 300.0


class NewSubmission(Schema):
    model_config = ConfigDict(extra="forbid")

    problem: Slug = Field(description="the problem's slug")
    code: str = Field(description="the whole Python file; at most MAX_CODE_BYTES (64 KiB) of UTF-8")
    kind: Literal["run", "submit"] = Field("submit", description="run: visible examples only, not counted")
    inputs: dict[str, str] | None = Field(
        None, description="a Run on your own inputs: parameter -> NumPy literal, as the page's custom-input form"
    )


class TestRow(Schema):
    name: str
    hidden: bool
    status: str
    status_label: str
    message: str
    checks: dict[str, str]  # check label -> passed | failed | skipped, the page's chips
    time_ms: float
    traceback: list[dict]
    stdout: str
    inputs: list[dict]  # visible tests: {label, shape, dtype, text}
    expected: dict | None
    actual: dict | None
    difference: dict | None  # visible wrong values: the figures and the heatmap (SVG) the page draws
    heatmap_svg: str | None


class Named(Schema):
    name: str
    explanation: str
    url: str
    tests: list[str] = []
    message: str = ""


class Speed(Schema):
    ratio: float  # CPU time against the reference's, on secret benchmark inputs (lower is faster)
    vectorised: bool  # within 2x of the reference
    percentile: int | None  # faster than this share (%) of the other students' best accepted solutions


class SubmissionOut(Schema):
    id: int
    problem: str
    kind: str
    custom: bool
    status: str
    final: bool
    verdict: str
    verdict_label: str
    accepted: bool
    message: str
    queue_position: int | None
    graded_in: str
    created_at: str
    tests: list[TestRow]
    misconceptions: list[Named]
    properties: list[Named]
    speed: Speed | None = None
    # Set while the student's assignment holds their grade (released later): the sentence saying when; the verdict
    # is "" and only the visible examples are listed until then.
    held: str = ""
    url: str


class SubmissionListed(Schema):
    id: int
    problem: str
    kind: str
    status: str
    verdict: str  # "" while held
    held: bool = False
    created_at: str
    url: str


class ListFilters(Schema):
    problem: Slug | None = None
    limit: int = Field(50, ge=1, le=200)


def get_own_submission(user, pk: int) -> Submission:
    """Only the token owner's own submissions, whoever they are (a token never sees others')."""
    submission = Submission.objects.select_related("problem").filter(pk=pk, user_id=user.pk).first()
    if submission is None:
        raise Http404(f"you have no submission #{pk}")
    return submission


def shown(request, submission: Submission) -> dict:
    final = submission.is_final
    hold = hold_on(request.user, submission) if final else None
    if hold is not None:
        return held(request, submission, hold)
    rows = results.result_rows(submission) if final else []
    verdict = "" if (final and submission.custom_error) else submission.verdict
    problem_url = reverse("problem-detail", args=[submission.problem.slug])
    return {
        "id": submission.pk,
        "problem": submission.problem.slug,
        "kind": submission.kind,
        "custom": submission.is_custom,
        "status": submission.status,
        "final": final,
        "verdict": verdict,
        "verdict_label": (
            "No expected output"
            if final and submission.custom_error
            else results.verdict_label(verdict)
            if verdict
            else ""
        ),
        "accepted": final and verdict == "accepted",
        "message": submission.message if final else "",
        "queue_position": queue_position(submission),
        "graded_in": results.grading_time(submission) if final else "",
        "created_at": submission.created_at.isoformat(),
        "tests": [row_of(row) for row in rows],
        "misconceptions": [absolute(request, m) for m in misconceptions_of(submission, problem_url)] if final else [],
        "properties": [absolute(request, p) for p in properties_of(submission, problem_url)] if final else [],
        "speed": _speed(submission) if final else None,
        "url": request.build_absolute_uri(reverse("submission-detail", args=[submission.pk])),
    }


def held(request, submission: Submission, hold: Hold) -> dict:
    """A Submit whose grade the author's assignment still holds (``courses.release``): graded, with the visible
    examples' rows, no verdict and nothing from the hidden tests; ``held`` says when grades come."""
    rows = [row for row in results.result_rows(submission) if not row.hidden]
    for row in rows:
        row.misconception = ""
    return {
        "id": submission.pk,
        "problem": submission.problem.slug,
        "kind": submission.kind,
        "custom": False,
        "status": submission.status,
        "final": True,
        "verdict": "",
        "verdict_label": "Received and graded",
        "accepted": False,
        "message": "",
        "queue_position": None,
        "graded_in": "",
        "created_at": submission.created_at.isoformat(),
        "tests": [row_of(row) for row in rows],
        "misconceptions": [],
        "properties": [],
        "speed": None,
        "held": hold.sentence,
        "url": request.build_absolute_uri(reverse("submission-detail", args=[submission.pk])),
    }


def _speed(submission: Submission) -> dict | None:
    standing = speed.standing(submission) if submission.speed else None
    if standing is None:
        return None
    return {"ratio": standing.ratio, "vectorised": standing.vectorised, "percentile": standing.percentile}


def absolute(request, named: dict) -> dict:
    """A named mistake with its link to the theory as a full address: a terminal has no page to be relative to."""
    return named | {"url": request.build_absolute_uri(named["url"]) if named.get("url") else ""}


def row_of(row: results.TestRow) -> dict:
    def array(a):
        return None if a is None else {"label": a.label, "shape": list(a.shape), "dtype": a.dtype, "text": a.text}

    figures = ("max_abs_error", "max_rel_error", "mismatches", "total", "first_mismatch")
    return {
        "name": row.name,
        "hidden": row.hidden,
        "status": row.status,
        "status_label": row.status_label,
        "message": row.message,
        "checks": dict(row.checks),
        "time_ms": row.time_ms,
        "traceback": [f for f in row.traceback if isinstance(f, dict)],
        "stdout": row.stdout,
        "inputs": [array(a) for a in row.inputs],
        "expected": array(row.expected),
        "actual": array(row.actual),
        "difference": {k: row.detail.get(k) for k in figures} if row.picture else None,
        "heatmap_svg": str(row.picture) if row.picture else None,
    }


@router.post(
    "/submissions",
    auth=SUBMIT,
    response={202: SubmissionOut, 403: ProblemDetails, 429: ProblemDetails, 413: ProblemDetails, **REFUSALS},
    url_name="api-submissions",
)
def create_submission(request, body: NewSubmission):
    """Run or submit code, as the problem page's buttons do (same limits, locks and checks); 202 while queued.

    Send an ``Idempotency-Key`` header (a UUID, one per submission) to make a retried request find the
    submission the first made: the same key, problem, code and kind; a key that is not a UUID is refused (400)."""
    key = idempotency_key(request)
    problem = get_published(body.problem)
    submission = take_submission(request, problem, body.code, body.kind, body.inputs, key, client_address(request))
    return Answer(202, shown(request, submission))


def idempotency_key(request) -> uuid.UUID | None:
    """The request's Idempotency-Key; a malformed one is refused rather than ignored (the retry would be stored
    and graded twice without the client knowing)."""
    sent = request.headers.get("Idempotency-Key")
    if sent is None:
        return None
    try:
        return uuid.UUID(sent)
    except ValueError:
        raise HttpError(
            400,
            f"the Idempotency-Key header must be a UUID, such as {EXAMPLE_KEY} (one per "
            f"submission, the same when retried), not {sent[:60]!r}",
        ) from None


@router.get(
    "/submissions", auth=READ, response={200: list[SubmissionListed], **REFUSALS}, url_name="api-submissions-mine"
)
def list_submissions(request, filters: Query[ListFilters]):
    """Your submissions, newest first."""
    found = Submission.objects.filter(user_id=request.user.pk).select_related("problem")
    if filters.problem:
        found = found.filter(problem__slug=filters.problem)
    listed = list(
        found.only("id", "kind", "status", "verdict", "created_at", "user_id", "problem__slug")[: filters.limit]
    )
    withheld = held_submission_ids(request.user, listed)
    return [
        {
            "id": s.pk,
            "problem": s.problem.slug,
            "kind": s.kind,
            "status": s.status,
            "verdict": "" if s.pk in withheld else s.verdict,
            "held": s.pk in withheld,
            "created_at": s.created_at.isoformat(),
            "url": request.build_absolute_uri(reverse("submission-detail", args=[s.pk])),
        }
        for s in listed
    ]


@router.get("/submissions/{int:pk}", auth=READ, response={200: SubmissionOut, **REFUSALS}, url_name="api-submission")
def get_submission(request, pk: int):
    """One of your submissions as its page shows it: per-test statuses and checks, messages, named mistakes."""
    return shown(request, get_own_submission(request.user, pk))


@router.get(
    "/submissions/{int:pk}/events",
    auth=READ,
    response={**REFUSALS},
    url_name="api-submission-events",
    openapi_extra={
        "responses": {
            200: {
                "description": "server-sent events: `status` while queued or "
                "running, then one `verdict` (the submission) and the end",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            }
        }
    },
)
def submission_events(request, pk: int):
    """A server-sent event stream: ``status`` events as it moves, then ``verdict`` with the whole submission."""
    get_own_submission(request.user, pk)
    response = StreamingHttpResponse(events(request, pk, request.user.pk), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on as it comes
    return response


def events(request, pk: int, user_id: int):
    """The stream's events.  Under ASGI an async iterator (``push.next_event_async``: a waiting client is an
    asyncio task, and Django sends each event as it comes; a synchronous one would be read to its end first);
    under WSGI a generator that waits like the page's long poll (``push.next_event``).  Both wake on the
    worker's Redis message and read the database for what to say."""
    if isinstance(request, ASGIRequest):
        return _async_events(request, pk, user_id)
    return _sync_events(request, pk, user_id)


def _sync_events(request, pk: int, user_id: int):
    deadline = time.monotonic() + STREAM_MAX_S
    last = None
    while True:
        chunk, last, wait = _next_event(request, pk, user_id, last, deadline - time.monotonic())
        yield chunk
        if wait is None:
            return
        push.next_event(pk, last, wait)


async def _async_events(request, pk: int, user_id: int):
    deadline = time.monotonic() + STREAM_MAX_S
    last = None
    next_event = sync_to_async(_next_event)
    while True:
        chunk, last, wait = await next_event(request, pk, user_id, last, deadline - time.monotonic())
        yield chunk
        if wait is None:
            return
        await push.next_event_async(pk, last, wait)


def _next_event(request, pk: int, user_id: int, last: str | None, left: float):
    """(what to send, the status now, how long to wait for a change; None: the stream ends)."""
    try:
        submission = Submission.objects.select_related("problem").get(pk=pk, user_id=user_id)
        news = push.StatusEvent(submission.status, last)
        if news.final:
            return sse("verdict", shown(request, submission)), submission.status, None
        if left <= 0:
            detail = "still grading; open the stream again"
            return sse("timeout", {"id": pk, "status": last, "detail": detail}), last, None
        if news.moved:
            chunk = sse("status", {"id": pk, "status": submission.status, "queue_position": queue_position(submission)})
        else:
            chunk = ": still waiting\n\n"  # a comment: keeps proxies from closing a quiet stream
        last = submission.status
        wait = settings.PUSH_QUEUED_WAIT_S if last == Status.QUEUED else settings.PUSH_WAIT_S
        return chunk, last, min(wait, left)
    finally:
        if isinstance(request, ASGIRequest):
            push.release_database_connection()


def sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"
