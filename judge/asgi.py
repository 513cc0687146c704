"""The ASGI entry point (``gunicorn -c deploy/gunicorn.conf.py judge.asgi``, with uvicorn workers).

Every page goes through Django's handler, as under WSGI, behind ``BodyLimitASGI`` (``judge/middleware.py``):
Django's handler reads a whole body before its middleware sees the request, so a body over its URL's limit
must be cut before.  The submission status stream is answered in front of it (``judge/pages/stream.py`` says
why), so a page waiting for its verdict costs an asyncio task, not a thread.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")
django_application = get_asgi_application()

from judge.middleware import BodyLimitASGI  # noqa: E402  (needs the apps loaded)
from judge.pages import stream  # noqa: E402

bounded_application = BodyLimitASGI(django_application)


async def application(scope: dict, receive, send) -> None:
    if scope["type"] == "http" and scope["method"] == "GET" and (match := stream.PATH.fullmatch(scope["path"])):
        return await stream.status_stream(scope, receive, send, int(match["pk"]))
    if scope["type"] == "lifespan":  # Django has nothing to start or stop
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        return await send({"type": "lifespan.shutdown.complete"})
    return await bounded_application(scope, receive, send)
