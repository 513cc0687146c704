"""The gunicorn worker class of the web processes (deploy/gunicorn.conf.py): uvicorn, running judge/asgi.py."""

from __future__ import annotations

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]  # it ships no type information


class Worker(UvicornWorker):
    # The client's address is REMOTE_ADDR, or what TRUSTED_PROXY_COUNT proxies saw (judge/accounts/limits.py):
    # uvicorn must not rewrite it from X-Forwarded-For itself, which a client on 127.0.0.1 could write.
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False, "server_header": False}
