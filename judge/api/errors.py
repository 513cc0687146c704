"""Every refusal as RFC 9457 problem details (``application/problem+json``), with a message a person can act on."""

from __future__ import annotations

import json

from django.http import HttpResponse
from ninja import Schema

PROBLEM_JSON = "application/problem+json"
TITLES = {
    400: "Bad request",
    401: "Not signed in",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Too large",
    415: "Unsupported media type",
    422: "Invalid input",
    429: "Too many requests",
    503: "Unavailable",
}


class ProblemDetails(Schema):
    """RFC 9457 problem details; ``errors`` lists each refused field when there are several."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    errors: list[dict] | None = None


def problem_response(
    status: int, detail: str, errors: list[dict] | None = None, headers: dict[str, str] | None = None
) -> HttpResponse:
    body = {"type": "about:blank", "title": TITLES.get(status, "Error"), "status": status, "detail": detail}
    if errors:
        body["errors"] = errors
    response = HttpResponse(json.dumps(body), status=status, content_type=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def field_errors(errors: list[dict]) -> tuple[str, list[dict]]:
    """pydantic's errors as one sentence and a list of {field, message}."""
    listed = []
    for error in errors:
        location = [str(part) for part in error.get("loc", ()) if part not in ("body", "query", "path", "payload")]
        listed.append({"field": ".".join(location) or "(body)", "message": str(error.get("msg", "invalid"))})
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in listed[:5]) or "the request is not valid"
    return detail, listed


# What the OpenAPI document says an endpoint may refuse with.
REFUSALS = {400: ProblemDetails, 401: ProblemDetails, 404: ProblemDetails, 422: ProblemDetails}
