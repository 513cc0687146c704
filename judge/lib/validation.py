"""What any code a student hands in must be before it is stored: a draft, a Run or a Submit.

Below every app, so the submissions, the drafts and the request middleware share one set of limits.
"""

from __future__ import annotations

from django.conf import settings


class SubmissionRejected(ValueError):
    """The code cannot be accepted; the message tells the student why."""


def validate_code(code: str | bytes) -> str:
    limit = settings.MAX_CODE_BYTES
    if isinstance(code, bytes):
        if len(code) > limit:
            raise SubmissionRejected(f"the code is {len(code):,} bytes; the limit is {limit:,} bytes")
        try:
            code = code.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = exc.object[: exc.start].count(b"\n") + 1
            raise SubmissionRejected(
                f"the code is not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} on line {line}); save the file as UTF-8"
            ) from None
    size = len(code.encode("utf-8", errors="surrogatepass"))
    if size > limit:
        raise SubmissionRejected(f"the code is {size:,} bytes; the limit is {limit:,} bytes")
    if not code.strip():
        raise SubmissionRejected("the code is empty")
    if "\x00" in code:
        raise SubmissionRejected("the code contains a NUL byte")
    try:
        code.encode("utf-8")
    except UnicodeEncodeError:
        raise SubmissionRejected("the code is not valid UTF-8 (it contains a lone surrogate)") from None
    return code
