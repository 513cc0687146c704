"""The NinjaAPI: routers, refusals as problem details, and the OpenAPI document that says so.

django-ninja rather than Django REST framework: its bodies and answers are pydantic schemas (typed,
validated, unknown fields refused with ``extra="forbid"``), the OpenAPI 3 document comes from those same
types with no second library, and its Swagger UI ships as static files that the site's CSP allows."""

from __future__ import annotations

import json

from django.http import Http404
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from judge.api import people, problems, submissions
from judge.api.errors import PROBLEM_JSON, field_errors, problem_response
from judge.lib.validation import SubmissionRejected
from judge.submissions.admission import SubmitRefused
from judge.submissions.limits import RateLimited
from judge.submissions.services.intake import CustomInputRejected


class JudgeAPI(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        """Refusals are ``application/problem+json``, as they are sent."""
        schema = super().get_openapi_schema(*args, **kwargs)
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                for status, response in operation.get("responses", {}).items():
                    content = response.get("content", {})
                    if str(status).startswith("4") and "application/json" in content:
                        response["content"] = {PROBLEM_JSON: content["application/json"]}
        return schema


api = JudgeAPI(
    title="NumPy Transformer Judge API",
    version="1",
    urls_namespace="api",
    description="Problems, submissions and progress for the npjudge client and notebook magic. "
    "Send `Authorization: Bearer <token>`; make a token on your profile page.",
)
api.add_router("", problems.router)
api.add_router("", submissions.router)
api.add_router("", people.router)


@api.exception_handler(ValidationError)
def invalid(request, exc: ValidationError):
    detail, errors = field_errors(exc.errors)
    return problem_response(422, detail, errors)


@api.exception_handler(AuthenticationError)
def unauthenticated(request, exc):
    return problem_response(
        401,
        "send `Authorization: Bearer <token>` with a live token; make one on your profile page",
        headers={"WWW-Authenticate": "Bearer"},
    )


@api.exception_handler(HttpError)
def http_error(request, exc: HttpError):
    if exc.__cause__ is not None and str(exc).startswith("Cannot parse request body"):
        return problem_response(400, unparsable(exc.__cause__))
    return problem_response(exc.status_code, str(exc))


def unparsable(cause: BaseException) -> str:
    """Why ninja's parser could not read the body: bytes that are not UTF-8, or text that is not JSON."""
    if isinstance(cause, UnicodeDecodeError):
        return f"the body is not valid UTF-8 (byte 0x{cause.object[cause.start]:02x} at offset {cause.start})"
    if isinstance(cause, json.JSONDecodeError):
        return f"the body is not valid JSON: {cause.msg} at line {cause.lineno}, column {cause.colno}"
    return "the body is not valid JSON"


@api.exception_handler(Http404)
def not_found(request, exc):
    return problem_response(404, str(exc) or "not found")


@api.exception_handler(CustomInputRejected)
def bad_custom_input(request, exc: CustomInputRejected):
    errors = [
        {"field": f"inputs.{name}" if name else "inputs", "message": message} for name, message in exc.errors.items()
    ]
    return problem_response(400, f"fix the custom input: {exc}", errors)


@api.exception_handler(SubmissionRejected)
def rejected(request, exc):
    return problem_response(400, str(exc))


@api.exception_handler(SubmitRefused)
def refused(request, exc: SubmitRefused):
    """Well-formed code that may not be submitted now (an assignment's attempt limit is used up): 403."""
    return problem_response(403, str(exc))


@api.exception_handler(RateLimited)
def limited(request, exc: RateLimited):
    return problem_response(429, str(exc), headers={"Retry-After": str(exc.retry_after_s)})
