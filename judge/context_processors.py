from __future__ import annotations

from django.core.cache import cache
from django.db import DatabaseError

from judge.lib.sandbox_backend import PROCESS_WARNING, resolve_backend_cached
from judge.submissions.queries import reported_sandbox

WORKER_SANDBOX_KEY = "footer:worker-sandbox"
WORKER_SANDBOX_TTL_S = 30


def sandbox(request) -> dict:
    """The footer names the sandbox the workers grade in, from what they recorded (refreshed every 30 s);
    before any submission is graded the warning falls back on this site's own configuration."""
    worker = cache.get(WORKER_SANDBOX_KEY)
    if worker is None:
        try:
            worker = reported_sandbox()
        except DatabaseError:  # an error page must render even when the database cannot answer
            return {"worker_sandbox": {}, "sandbox_warning": ""}
        cache.set(WORKER_SANDBOX_KEY, worker, WORKER_SANDBOX_TTL_S)
    backend = worker.get("backend") or resolve_backend_cached()
    return {
        "worker_sandbox": worker,
        "sandbox_warning": PROCESS_WARNING if backend == "process" else "",
    }
