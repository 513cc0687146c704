"""Gunicorn for the web container (``gunicorn -c deploy/gunicorn.conf.py judge.asgi``).

Sizing (docs/operators/compose.md#serving-the-pages): each process runs a uvicorn worker
(ASGI, ``judge/asgi.py``).  A page waiting for its verdict keeps a status
stream open (server-sent events); under ASGI that costs an asyncio task and a
few kilobytes, not a thread, and every stream of a process is woken by the
process's one Redis connection.  Pages are Django's synchronous views, each
run on a thread of its own while it renders.

The old way stays available (``GUNICORN_WORKER_CLASS=gthread``, with
``judge.wsgi``): the page then long-polls, and a waiting page holds a thread.

- ``GUNICORN_WORKERS``: processes, for CPU; default one per core plus one
  (3 on 2 cores). More does not help a CPU-bound page (password hashing,
  rendering) and each costs about 60 MB.
- ``GUNICORN_THREADS``: with ``gthread`` only, concurrent requests per
  process, for waiting; default 32 (3 x 32 = 96 pages waiting at once).
- ``DATABASE_POOL_MAX`` (compose: 12): each process keeps a psycopg pool and a
  thread borrows a connection only while it queries, so 96 threads need far
  fewer than PostgreSQL's 100 connections: keep workers x DATABASE_POOL_MAX
  plus the Celery processes under ``max_connections``.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from pathlib import Path

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")  # all of the container's
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "judge.workers.Worker")
workers = int(os.environ.get("GUNICORN_WORKERS", str(multiprocessing.cpu_count() + 1)))
threads = int(os.environ.get("GUNICORN_THREADS", "32"))  # gthread only
# A long poll answers within PUSH_WAIT_S (20 s); the timeout is the worker's own heartbeat, not a request's.
timeout = 60
graceful_timeout = 30
keepalive = 5
# With LOG_FORMAT=json the site writes one JSON line per request, with its request id (judge/middleware.py), and
# gunicorn's and uvicorn's own lines (starting, a worker restarted) are JSON too.
accesslog = None if os.environ.get("LOG_FORMAT") == "json" else "-"
if os.environ.get("LOG_FORMAT") == "json":
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "judge.lib.logs.RequestIdFilter"}},
        "formatters": {"json": {"()": "judge.lib.logs.json_formatter"}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json", "filters": ["request_id"]}},
        "root": {"handlers": ["json"], "level": "INFO"},
        "loggers": {"gunicorn.error": {"handlers": ["json"], "level": "INFO", "propagate": False}},
    }


def on_starting(server) -> None:
    """/metrics adds up the web processes' HTTP counts from files in PROMETHEUS_MULTIPROC_DIR (prometheus-client's
    multiprocess mode): the files of an earlier run would be counted again, so the directory starts empty."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        Path(folder).mkdir(parents=True)


def child_exit(server, worker) -> None:
    """A process that exits leaves its counts behind (counters keep counting); its live gauges go."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
