"""Which sandbox backend grades, and one warm sandbox per worker process."""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Iterator

from django.conf import settings

from sandbox.backends.base import Sandbox
from sandbox.backends.process import ProcessSandbox, is_isolated

log = logging.getLogger(__name__)
_local = threading.local()

PROCESS_WARNING = "Grading with the process sandbox: it is weaker than Docker " + (
    "(namespaces and a separate uid, but the host kernel and file system)."
    if is_isolated()
    else "(NOT running as root: no network or file-system isolation, same uid)."
)


def docker_available() -> bool:
    try:
        from sandbox.backends import docker as docker_backend
    except ImportError:
        return False
    return docker_backend.available(settings.SANDBOX_IMAGE)


def resolve_backend(requested: str | None = None) -> str:
    kind = requested or settings.SANDBOX_BACKEND
    if kind == "auto":
        kind = "docker" if docker_available() else "process"
    return kind


def open_sandbox(kind: str | None = None, pool_size: int | None = None) -> Sandbox:
    kind = resolve_backend(kind)
    if kind == "docker":
        from sandbox.backends.docker import DockerSandbox

        return DockerSandbox(
            image=settings.SANDBOX_IMAGE,
            pool_size=pool_size or settings.SANDBOX_POOL_SIZE,
            socket_dir=settings.SANDBOX_SOCKET_DIR,
            cpu_shares=settings.SANDBOX_CPU_SHARES or None,
        )
    log.warning(PROCESS_WARNING)
    return ProcessSandbox()


def worker_sandbox_stats() -> dict[str, int | str] | None:
    """This process's warm sandbox as ``/metrics`` and the status page show it: backend, image, how many it
    keeps warm, how many were recycled after a job and thrown away after a failure; None before it opened."""
    sandbox = getattr(_local, "sandbox", None)
    if sandbox is None:
        return None
    return {
        "backend": sandbox.name,
        "image": settings.SANDBOX_IMAGE if sandbox.name == "docker" else "",
        "size": sandbox.pool_size,
        "recycled": getattr(_local, "recycled", 0) + sandbox.recycled,
        "failures": getattr(_local, "failures", 0),
    }


def worker_sandbox() -> Sandbox:
    """The sandbox this worker process keeps warm between submissions."""
    sandbox = getattr(_local, "sandbox", None)
    if sandbox is None:
        sandbox = _local.sandbox = open_sandbox()
    return sandbox


def discard_worker_sandbox() -> None:
    """After a failure mid-job: the next job opens a fresh sandbox (counted in ``worker_sandbox_stats``)."""
    sandbox = getattr(_local, "sandbox", None)
    _local.sandbox = None
    if sandbox is not None:
        _local.recycled = getattr(_local, "recycled", 0) + sandbox.recycled
        _local.failures = getattr(_local, "failures", 0) + 1
        sandbox.close()


@functools.lru_cache(maxsize=1)
def resolve_backend_cached() -> str:
    """For pages: which backend this site's workers use (looked up once)."""
    return resolve_backend()


class _LazySandbox(Sandbox):
    """Opens the configured sandbox on first use: an unchanged or cached sync starts no containers."""

    name = "lazy"

    def __init__(self) -> None:
        self.inner: Sandbox | None = None

    def run(self, job):
        if self.inner is None:
            self.inner = open_sandbox()
        return self.inner.run(job)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


@contextlib.contextmanager
def lazy_sandbox(sandbox: Sandbox | None = None) -> Iterator[Sandbox]:
    """``sandbox`` if given, else one opened on first use and closed at the end."""
    if sandbox is not None:
        yield sandbox
        return
    with _LazySandbox() as box:
        yield box
