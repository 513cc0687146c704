"""Form input the site refuses before any view sees it, with a message the page shows.

Django decodes form fields with ``errors="replace"``: bytes that are not UTF-8 (or a UTF-8-encoded lone
surrogate) would reach a view as U+FFFD and be stored silently.  Here fields are decoded with
``surrogateescape`` instead, so such bytes stay visible, and the request is refused with the same message
the file-upload path gives.  A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is refused the same way, rather
than with Django's bare "Bad Request (400)" that an htmx caller never shows.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.template.loader import render_to_string

from judge.lib.validation import SubmissionRejected, validate_code

ESCAPED_UTF8 = "judge-utf-8-escaped"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _decode_escaped(data: bytes, errors: str = "strict") -> tuple[str, int]:
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


def too_big_message(request: HttpRequest) -> str:
    size = int(request.META.get("CONTENT_LENGTH") or 0)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    code_limit = settings.MAX_CODE_BYTES
    return (f"the form is {size:,} bytes, more than the {limit:,} the site accepts; "
            f"the code may be at most {code_limit:,} bytes")


def _is_escaped(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def form_problem(request: HttpRequest) -> str | None:
    """Why the posted form cannot be read, or None."""
    try:
        if request.content_type == "multipart/form-data":
            request.encoding = ESCAPED_UTF8  # the parser decodes fields with it, and keeps no raw copy
            fields = [request.GET, request.POST]
        else:  # Django decodes urlencoded bodies as UTF-8 whatever the encoding: check the body kept
            fields = [QueryDict(request.META.get("QUERY_STRING", "").encode("iso-8859-1"), encoding=ESCAPED_UTF8),
                      QueryDict(request.body, encoding=ESCAPED_UTF8)]
    except RequestDataTooBig:
        return too_big_message(request)
    except TooManyFieldsSent:
        return f"the form has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,} fields"
    for data in fields:
        for name, values in data.lists():
            if _is_escaped(name):
                return not_utf8_message("name of a", name)
            for value in values:
                if _is_escaped(value):
                    return not_utf8_message(name, value)
    return None


def refusal(request: HttpRequest, message: str) -> HttpResponse:
    if request.headers.get("HX-Request") == "true":
        # htmx swaps only 2xx responses: the message must arrive as one to be seen (as _rejected does).
        return HttpResponse(render_to_string("submissions/_rejected.html", {"error": message}, request))
    if request.headers.get("Sec-Fetch-Dest") == "empty":  # fetch(), e.g. the editor's draft autosave
        return JsonResponse({"saved": False, "error": message}, status=400)
    return HttpResponse(render_to_string("400.html", {"message": message}, request), status=400)


class FormInputMiddleware:
    """Before CSRF (which reads the form): refuse undecodable or oversized forms with a clear message."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.content_type in FORM_TYPES:
            message = form_problem(request)
            if message:
                return refusal(request, message)
        return self.get_response(request)
