from __future__ import annotations

import numpy
from django.core.cache import cache
from django.db import DatabaseError

from judge.learning.preferences import defaults, preferences_of
from judge.lib.releases import version
from judge.lib.sandbox_backend import PROCESS_WARNING, resolve_backend_cached
from judge.submissions.queries import reported_sandbox
from judge.submissions.workers import cached_grading_state

WORKER_SANDBOX_KEY = "footer:worker-sandbox"
WORKER_SANDBOX_TTL_S = 30


def sandbox(request) -> dict:
    """The footer names the sandbox the workers grade in, from what they recorded (refreshed every 30 s);
    before any submission is graded the warning falls back on this site's own configuration."""
    worker = _worker_sandbox()
    backend = (worker or {}).get("backend") or resolve_backend_cached()
    return {
        "worker_sandbox": worker or {},
        # Before a worker has said which NumPy it grades with, the pin both sides are built from (pyproject.toml).
        "numpy_version": (worker or {}).get("numpy") or numpy.__version__,
        "sandbox_warning": PROCESS_WARNING if backend == "process" and worker is not None else "",
        "judge_version": version(),  # pyproject.toml's: which release an operator or a bug report is looking at
    }


def _worker_sandbox() -> dict | None:
    """What the workers recorded ({} before any grading), or None when neither the cache nor the database can
    say: every page, an error page included, must still render then."""
    try:
        worker = cache.get(WORKER_SANDBOX_KEY)
    except Exception:  # the cache is down: it only spares a query
        worker = None
    if worker is not None:
        return worker
    try:
        worker = reported_sandbox()
    except DatabaseError:
        return None
    try:
        cache.set(WORKER_SANDBOX_KEY, worker, WORKER_SANDBOX_TTL_S)
    except Exception:  # the cache is down: the next page asks the database again
        pass
    return worker


def grading(request) -> dict:
    """Staff see on every page when no grading worker has been heard from lately: submissions then wait."""
    user = getattr(request, "user", None)
    if user is None or not user.is_staff:
        return {}
    state = cached_grading_state()
    return {"grading_stopped": state} if state is not None and state.alarming else {}


def preferences(request) -> dict:
    """The student's settings, which <html> carries for the stylesheet and the editor (base.html)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"prefs": defaults(), "prefs_local": True}
    try:
        return {"prefs": preferences_of(user), "prefs_local": False}
    except DatabaseError:  # an error page still renders, with the defaults
        return {"prefs": defaults(), "prefs_local": False}
