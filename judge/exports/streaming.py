"""An export as an HTTP download, streamed under WSGI and ASGI alike.

Django reads a synchronous iterator to its end before sending any of it under ASGI (a whole history in memory);
there the chunks are pulled one at a time on the request's own thread (``sync_to_async`` is thread-sensitive
by default, so the ORM keeps its connection) and sent as each commit is made."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse

from judge.exports.history import Export


def download(request, export: Export) -> StreamingHttpResponse:
    chunks = _pulled(export.chunks) if isinstance(request, ASGIRequest) else export.chunks
    response = StreamingHttpResponse(chunks, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    response["Cache-Control"] = "no-store"
    return response


async def _pulled(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    step = sync_to_async(_next)
    try:
        while (chunk := await step(chunks)) is not None:
            yield chunk
    finally:
        await sync_to_async(_close)(chunks)


def _next(chunks: Iterator[bytes]) -> bytes | None:
    return next(chunks, None)


def _close(chunks: Iterator[bytes]) -> None:
    close = getattr(chunks, "close", None)
    if close is not None:
        close()
