"""Gunicorn for the web container (``gunicorn -c deploy/gunicorn.conf.py judge.wsgi``).

Sizing (README, "Serving the pages"): the status view holds a request open
until a submission's status changes (a long poll woken by Redis), so a worker
needs threads, not a process per request.  ``gthread`` gives each process a
pool of threads; a waiting thread costs no CPU and, while parked on Redis,
holds no database connection.

- ``GUNICORN_WORKERS``: processes, for CPU; default one per core plus one
  (3 on 2 cores). More does not help a CPU-bound page (password hashing,
  rendering) and each costs about 60 MB.
- ``GUNICORN_THREADS``: concurrent requests per process, for waiting; default
  32. Size workers x threads above the students waiting on a verdict at once
  plus those loading pages (a class of 50: 3 x 32 = 96).
- ``DATABASE_POOL_MAX`` (compose: 12): each process keeps a psycopg pool and a
  thread borrows a connection only while it queries, so 96 threads need far
  fewer than PostgreSQL's 100 connections: keep workers x DATABASE_POOL_MAX
  plus the Celery processes under ``max_connections``.
"""

from __future__ import annotations

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")  # all of the container's
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", str(multiprocessing.cpu_count() + 1)))
threads = int(os.environ.get("GUNICORN_THREADS", "32"))
# A long poll answers within PUSH_WAIT_S (20 s); gthread's timeout is the worker's own heartbeat.
timeout = 60
graceful_timeout = 30
keepalive = 5
accesslog = "-"
